"""python_fugitive in OpenSpiel: the library's own random simulation test, clones and
serialization, the same records as the engine, and each player's information."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install -e '.[research]'")

import engine.openspiel as eo  # noqa: E402  (registers python_fugitive)
from engine import encoding as enc  # noqa: E402
from engine import replay  # noqa: E402
from notepad import validate  # noqa: E402

from .games import RULESETS, bot_record, bot_records, knowledge_of, twins  # noqa: E402


def params_of(ruleset, **more):
    return {"opening": ruleset.opening, "pass_draw": ruleset.pass_draw, **more}


def game_for(ruleset, **more):
    return pyspiel.load_game("python_fugitive", params_of(ruleset, **more))


def states_along(game, record):
    """The pyspiel states along a full record, from the root."""
    state = game.new_initial_state()
    out = [state.clone()]
    for a in enc.actions_for_record(record):
        state.apply_action(a)
        out.append(state.clone())
    return out


# --------------------------------------------------------------------------- the game
def test_the_game_is_registered_with_both_ruleset_options_as_parameters():
    game = pyspiel.load_game("python_fugitive")
    assert game.get_parameters() == {"opening": "one-or-two", "pass_draw": False, "max_turns": 200}
    assert isinstance(game, eo.FugitiveGame) and game.ruleset == RULESETS[0]
    two = pyspiel.load_game("python_fugitive(opening=two,pass_draw=True,max_turns=30)")
    assert (two.ruleset.opening, two.ruleset.pass_draw, two.max_turns) == ("two", True, 30)
    kind = game.get_type()
    assert kind.short_name == "python_fugitive"
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (2, 170, 42)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == enc.max_game_length(200)
    assert game.information_state_tensor_size() == enc.Observer(perfect_recall=True).tensor.size
    assert game.observation_tensor_size() == enc.Observer().tensor.size


@pytest.mark.parametrize("params, words", [
    ({"opening": "three"}, "opening"),
    ({"max_turns": 0}, "max_turns"),
    ({"pass_draw": 1}, "pass_draw"),
    ({"shift_cards": True}, "shift_cards"),
])
def test_bad_parameters_are_refused_with_a_clear_message(params, words):
    with pytest.raises((ValueError, pyspiel.SpielError), match=words):
        pyspiel.load_game("python_fugitive", params)


# --------------------------------------------------------------------------- OpenSpiel's own test
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.opening}-{r.pass_draw}")
def test_openspiels_random_simulation_test_from_the_deal(ruleset):
    # max_turns 10 keeps 30 uniformly random games short (a uniformly random Marshal
    # rarely ends a game: she adds numbers to her guesses half the time).
    game = game_for(ruleset, max_turns=10)
    pyspiel.random_sim_test(game, num_sims=30, serialize=True, verbose=False)


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.opening}-{r.pass_draw}")
def test_openspiels_random_simulation_test_to_every_ending(ruleset):
    """From late positions of bot games, so that the random continuations end in
    escapes, Manhunts and catches (each game allows 20 more guesses than its start
    has made), and from the bot games' own ends (the terminal checks of both
    winners: a uniformly random Marshal seldom catches the Fugitive)."""
    endings = Counter()

    def check(state):
        node = state.node
        if node.game is not None and node.game.phase.value == "manhunt":
            endings["manhunt"] += 1
        if state.is_terminal():
            endings["cut" if node.cut else node.game.winner] += 1

    for seed in range(15):
        record = bot_record(seed, ruleset)
        start_record = record.truncated(max(0, len(record.events) - 12))
        guesses = sum(e.type == "guess" for e in start_record.events)
        game = game_for(ruleset, max_turns=guesses + 20)
        start = eo.state_from_record(game, start_record)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False, state_checker_fn=check,
                                specific_initial_state=start)
        end = eo.state_from_record(game_for(ruleset), record)
        pyspiel.random_sim_test(end.get_game(), num_sims=1, serialize=True, verbose=False, state_checker_fn=check,
                                specific_initial_state=end)
    assert endings["fugitive"] and endings["marshal"] and endings["manhunt"], endings


# --------------------------------------------------------------------------- clones, serialization
def test_a_clone_shares_the_immutable_node_and_goes_on_alone():
    game = pyspiel.load_game("python_fugitive")
    state = eo.random_game(game, random.Random(1))
    assert state.is_terminal()
    for s in states_along(game, state.record())[5::25]:
        if s.is_terminal():
            continue
        clone = s.clone()
        assert isinstance(clone, eo.FugitiveState)
        assert clone.node is s.node  # a reference copy, not a deep one
        assert str(clone) == str(s) and clone.history() == s.history()
        before = str(s)
        clone.apply_action(clone.legal_actions()[0] if not clone.is_chance_node() else clone.chance_outcomes()[0][0])
        assert str(s) == before and clone.history() != s.history()


def test_serialization_round_trips_every_state():
    for record in bot_records(4, start=3):
        game = game_for(record.ruleset)
        for s in states_along(game, record)[::9]:
            text = pyspiel.serialize_game_and_state(game, s)
            game2, s2 = pyspiel.deserialize_game_and_state(text)
            assert str(game2) == str(game)
            assert str(s2) == str(s) and s2.history() == s.history()
            assert s2.node == s.node and s2.record() == s.record()
            assert s2.legal_actions() == s.legal_actions() and s2.current_player() == s.current_player()
            for p in (0, 1):
                assert s2.information_state_string(p) == s.information_state_string(p)
                assert s2.information_state_tensor(p) == s.information_state_tensor(p)
                assert s2.observation_string(p) == s.observation_string(p)


# --------------------------------------------------------------------------- the same game as the engine
@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.opening}-{r.pass_draw}")
def test_a_game_played_through_pyspiel_gives_the_engines_record(ruleset):
    game = game_for(ruleset)
    rng = random.Random(f"{ruleset}")
    finished = 0
    for _ in range(6):
        state = eo.random_game(game, rng)
        record = state.record()
        assert record.is_full
        assert replay(record) == state.engine_state()  # the engine accepts every move, in order
        assert replay(record).record() == record
        checked = validate(record)  # and so does the notepad's independent validator
        returns = state.returns()
        if state.node.cut:
            assert not checked.over and returns == [0.0, 0.0]
        else:
            assert checked.over
            assert returns == ([1.0, -1.0] if checked.winner == "fugitive" else [-1.0, 1.0])
            finished += 1
    assert finished


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: f"{r.opening}-{r.pass_draw}")
def test_an_engine_game_played_through_pyspiel_gives_the_same_record(ruleset):
    game = game_for(ruleset)
    for seed in range(5):
        record = bot_record(seed, ruleset)
        state = eo.state_from_record(game, record)
        assert state.record() == record and state.marshal_record() == record.marshal_view()
        assert state.engine_state() == replay(record)
        assert state.history() == enc.actions_for_record(record)
        assert state.is_terminal()
        winner = replay(record).winner
        assert state.returns() == ([1.0, -1.0] if winner == "fugitive" else [-1.0, 1.0])


def test_a_record_of_another_ruleset_is_refused():
    with pytest.raises(ValueError, match="ruleset"):
        eo.state_from_record(pyspiel.load_game("python_fugitive"), bot_record(0, RULESETS[1]))


# --------------------------------------------------------------------------- what each player knows
@pytest.mark.parametrize("hidden", ["fugitive", "marshal"])
def test_information_states_of_histories_that_differ_only_in_the_other_players_cards_are_equal(hidden):
    viewer = 1 if hidden == "fugitive" else 0
    owner = 1 - viewer
    rng = random.Random(7)
    pairs = 0
    for record in bot_records(8, start=20):
        game = game_for(record.ruleset)
        for twin in twins(record, hidden, rng, limit=1, hideouts=hidden == "fugitive"):
            pairs += 1
            own_differs = False
            for x, y in zip(states_along(game, record), states_along(game, twin)):
                assert x.information_state_string(viewer) == y.information_state_string(viewer)
                assert x.information_state_tensor(viewer) == y.information_state_tensor(viewer)
                assert x.observation_string(viewer) == y.observation_string(viewer)
                assert x.observation_tensor(viewer) == y.observation_tensor(viewer)
                own_differs |= x.information_state_string(owner) != y.information_state_string(owner)
            assert own_differs
    assert pairs >= 4


def test_the_marshals_information_state_never_names_a_face_down_hideout():
    for record in bot_records(4):
        for s in states_along(game_for(record.ruleset), record)[::5]:
            g = s.engine_state()
            if g is None:
                continue
            text = s.information_state_string(1)
            row_line = next(line for line in text.splitlines() if line.startswith("row: "))
            face_down = [h.number for h in g.row if not h.face_up]
            assert row_line.count("?") == len(face_down)
            assert "Fugitive's hand" not in text
            assert "Marshal's hand" not in s.information_state_string(0)


@pytest.mark.parametrize("recall", [False, True])
def test_every_kind_of_observer_opens(recall):
    game = pyspiel.load_game("python_fugitive")
    from open_spiel.python.observation import make_observation

    state = states_along(game, bot_record(2))[60]
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=recall, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    public.set_from(state, 0)
    t0 = public.tensor.copy()
    public.set_from(state, 1)
    assert np.array_equal(t0[2:], public.tensor[2:])  # the same but for "player"
    full = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=recall, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    full.set_from(state, 1)
    assert full.dict["fugitive_hand"].sum() == len(state.engine_state().fugitive_hand)
    assert "Fugitive's hand" in full.string_from(state, 1) and "Marshal's hand" in full.string_from(state, 1)


# --------------------------------------------------------------------------- resampling
def test_a_random_game_through_pyspiel_never_meets_an_illegal_action():
    """Every legal action applies (a revealed sprint card is not a legal guess: the
    engine refuses it, so the encoding must not offer it)."""
    game = pyspiel.load_game("python_fugitive")
    for seed in range(40):
        eo.random_game(game, random.Random(seed))


def _decision_states(record, every=7):
    game = game_for(record.ruleset)
    return [s for s in states_along(game, record)[5::every] if not s.is_chance_node() and not s.is_terminal()]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_resampled_state_has_the_same_information_state_for_the_asking_player(seed):
    record = bot_record(seed, RULESETS[seed % len(RULESETS)])
    rng = random.Random(seed)
    for state in _decision_states(record):
        for player, name in ((0, "fugitive"), (1, "marshal")):
            got = state.resample_from_infostate(player, rng)
            assert got.information_state_string(player) == state.information_state_string(player)
            assert np.array_equal(got.information_state_tensor(player), state.information_state_tensor(player))
            assert got.current_player() == state.current_player()
            assert got.legal_actions() == state.legal_actions() or player != got.current_player()
            validate(got.record())
            assert knowledge_of(got.record(), name) == knowledge_of(state.record(), name)


def test_openspiel_s_own_sampler_argument_works():
    state = _decision_states(bot_record(5))[2]
    got = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert got.information_state_string(1) == state.information_state_string(1)


def test_resampling_keeps_the_asking_player_s_unfinished_choice_and_drops_the_other_s():
    # a Marshal's turn to guess: she starts a guess of several numbers
    state = next(s for s in _decision_states(bot_record(2), every=1) if s.node.game.phase.value == "marshal_guess")
    adds = [a for a in state.legal_actions() if a >= enc.ADD_BASE]
    state.apply_action(adds[0])
    rng = random.Random(0)
    mine = state.resample_from_infostate(1, rng)
    assert mine.node.chosen == state.node.chosen
    assert mine.information_state_string(1) == state.information_state_string(1)
    theirs = state.resample_from_infostate(0, rng)
    assert theirs.node.chosen == ()
    assert theirs.information_state_string(0) == state.information_state_string(0)


def test_during_the_deal_the_marshal_s_resample_deals_again():
    game = pyspiel.load_game("python_fugitive")
    state = game.new_initial_state()
    for card in (4, 5, 6, 15):
        state.apply_action(card)
    rng = random.Random(1)
    dealt = Counter(tuple(state.resample_from_infostate(1, rng).node.dealt) for _ in range(200))
    assert all(len(d) == 4 and set(d[:3]) <= set(range(4, 15)) and d[3] in range(15, 29) for d in dealt)
    assert len(dealt) > 150  # 990 * 14 ways: almost every deal differs
    assert state.resample_from_infostate(0, rng).node.dealt == state.node.dealt


def _chi2_p(observed, exact, samples):
    from tests.solver.test_sample import chi2_test

    return chi2_test(observed, exact, samples)


@pytest.mark.slow
def test_the_marshal_s_resamples_follow_the_exact_measure():
    """A tiny state: the Marshal to guess after a two-hideout opening, her cards 5 and
    16. The hideouts of 3,000 resampled states against the brute-force enumeration."""
    from tests.solver.brute import brute_distribution
    from engine.record import record_from_dict
    from tests.solver.records import mdraw, place, record

    public = record(place(0), place(0), mdraw(5), mdraw(16))
    game = pyspiel.load_game("python_fugitive")
    state = game.new_initial_state()
    for a in (4, 6, 8, 15, 17, enc.place_action(2), enc.place_action(4),
              enc.draw_action(1), 5, enc.draw_action(2), 16):
        state.apply_action(a)
    assert state.marshal_record() == record_from_dict(public)  # (the helper writes version 1 documents)
    exact = brute_distribution(public, lambda row, sets, slots: row)
    rng = random.Random(7)
    samples = 3000
    observed = Counter()
    for _ in range(samples):
        got = state.resample_from_infostate(1, rng)
        observed[tuple(h.number for h in got.engine_state().row[1:])] += 1
    assert _chi2_p(observed, exact, samples) > 1e-3


def test_the_fugitive_s_resamples_draw_her_cards_uniformly():
    game = pyspiel.load_game("python_fugitive")
    state = game.new_initial_state()
    for a in (4, 6, 8, 15, 17, enc.place_action(2), enc.place_action(4), enc.draw_action(1), 5):
        state.apply_action(a)
    rng = random.Random(3)
    samples = 4000
    observed = Counter(state.resample_from_infostate(0, rng).node.marshal_cards for _ in range(samples))
    unseen = [c for c in range(4, 15) if c not in (4, 6, 8)]
    assert _chi2_p(observed, {(c,): 1 for c in unseen}, samples) > 1e-3
