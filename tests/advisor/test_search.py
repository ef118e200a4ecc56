"""The search Fugitive: legal moves from his view only, the Marshal's real answers in
its look-ahead, budgets, and the fitting of its value."""
from __future__ import annotations

import random

import pytest

from engine import apply, fugitive_view, marshal_view, new_game, rules
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.cards import ESCAPE
from engine.rules import BASE_STEP
from engine.moves import Draw, PassTurn, PlaceHideout
from engine.record import Ruleset
from engine.state import Phase

from advisor.answers import RANKING_POOL
from advisor.bots import FUGITIVE_BOTS, SolverMarshal, _same_figures, make_bot, strongest_guesses
from advisor.guesses import advise_guesses
from advisor.marshal_hand import determinize
from advisor.search import Budget, SearchFugitive, features, placement_candidates, value_of
from advisor.cache import solve_cached


def test_candidates_are_legal_and_reach_every_hideout_with_bluffs():
    prev, hand = 5, frozenset({1, 2, 3, 7, 9, 12, 16, 42})
    cands = placement_candidates(prev, hand, bluff=2)
    for m in cands:
        assert rules.placement_error(prev, hand, m.hideout, m.sprint_cards) is None
    assert {m.hideout for m in cands} == set(rules.legal_hideouts(prev, hand))
    by = {}
    for m in cands:
        by.setdefault(m.hideout, []).append(len(m.sprint_cards))
    assert by[7] == [0, 1, 2]  # no sprint card needed, and one or two as a bluff
    # a sprint set spends cards below the hideout before cards he could still place
    seven = next(m for m in cands if m.hideout == 7 and len(m.sprint_cards) == 1)
    assert max(seven.sprint_cards) < 7
    twelve = next(m for m in cands if m.hideout == 12 and len(m.sprint_cards) == 2)
    assert sum(rules.SPRINT[c] for c in twelve.sprint_cards) >= 12 - prev - BASE_STEP
    # the escape's sprint cards are never revealed: it carries no bluff
    escapes = [m for m in placement_candidates(30, frozenset({2, 4, 31, 33, 36, 38, 42})) if m.hideout == ESCAPE]
    assert len(escapes) == 1 and len(escapes[0].sprint_cards) == 5  # 9 footprints: four even cards and one odd


def test_the_two_opening_leaves_a_second_hideout():
    state = new_game(4, Ruleset("two"))
    bot = SearchFugitive(1, samples=1)
    first = bot.choose(fugitive_view(state))
    state = apply(state, first)
    second = bot.choose(fugitive_view(state))
    assert isinstance(second, PlaceHideout)
    apply(state, second)  # legal


def test_its_look_ahead_is_the_marshals_real_answer():
    # one hideout with no sprint card: 1, 2 and 3 are equally likely to her, and the
    # solver Marshal with ties="lowest" guesses the lowest: alone at 1 he is caught, at 3 he is not
    state = new_game(8)
    bot = SearchFugitive(2, samples=1, marshal=SolverMarshal)
    det = determinize(fugitive_view(state), random.Random(0))
    assert bot._value_after(det, (PlaceHideout(1), PassTurn())) == 0.0
    assert bot._value_after(det, (PlaceHideout(3), PassTurn())) > 0.0
    opening = bot.choose(fugitive_view(state))
    assert opening != PlaceHideout(1) or bot.choose(fugitive_view(apply(state, opening))) != PassTurn()


@pytest.mark.parametrize("hideout", [1, 2, 3])
def test_its_model_marshal_breaks_ties_at_random_as_the_randomtie_marshals_do(hideout):
    # alone at 1, 2 or 3 with no sprint card: her three equally good guesses are each
    # answered, one in three, and exactly one of them catches him wherever he hides
    state = new_game(8)
    bot = SearchFugitive(2, samples=1)
    det = determinize(fugitive_view(state), random.Random(0))
    after = apply(apply(det, PlaceHideout(hideout)), PassTurn())
    branches = bot._marshal_turn(after)
    assert sorted(w for w, _ in branches) == pytest.approx([1 / 3] * 3)
    guesses = sorted(s.events[-1].numbers for _, s in branches)
    assert guesses == [(1,), (2,), (3,)]
    assert sum(s.winner == "marshal" for _, s in branches) == 1
    bot.wary = 0.0  # the model alone
    value = bot._value_after(det, (PlaceHideout(hideout), PassTurn()))
    assert value == pytest.approx(sum(w * bot.value(s) for w, s in branches))
    assert 0.0 < value < 2 / 3 + 1e-9
    # the ties="lowest" model counts on her guessing 1
    lowest = SearchFugitive(2, samples=1, marshal=SolverMarshal)
    assert [s.events[-1].numbers for _, s in lowest._marshal_turn(after)] == [(1,)]


def _to_her_guess(bot, state):
    """``state`` after her draws by ``bot``'s model, at her guess."""
    while state.phase is not Phase.MARSHAL_GUESS:
        state = apply(state, bot._answers_to(state)[0])
    return state


@pytest.mark.parametrize("wary", [0.5, 1.0])
def test_a_wary_bot_values_a_plan_partly_by_her_strongest_guess_against_it(wary):
    # alone at 1, 2 or 3: the model's answer catches him one time in three, but one of
    # her strongest guesses (1, 2 and 3 among them) always does: the worst case is a loss
    state = new_game(8)
    det = determinize(fugitive_view(state), random.Random(0))
    bot = SearchFugitive(2, samples=1)
    bot.wary = wary
    after = apply(apply(det, PlaceHideout(2)), PassTurn())
    drawn = _to_her_guess(bot, after)
    strongest = strongest_guesses(marshal_view(drawn), bot.contenders)
    assert {(2,)} <= {tuple(sorted(g.numbers)) for g in strongest}
    worst = min(sum(w * bot.value(s) for w, s in bot._marshal_turn(apply(drawn, g))) for g in strongest)
    assert worst == 0.0
    model = sum(w * bot.value(s) for w, s in bot._marshal_turn(after))
    assert model > 0.0
    assert bot._value_after(det, (PlaceHideout(2), PassTurn())) == pytest.approx((1 - wary) * model + wary * worst)


def test_her_strongest_guesses_are_the_lookaheads_first_with_every_tie():
    state = apply(apply(determinize(fugitive_view(new_game(8)), random.Random(0)), PlaceHideout(2)), PassTurn())
    state = _to_her_guess(SearchFugitive(2), state)
    view = marshal_view(state)
    ranked = advise_guesses(view.record, top=RANKING_POOL, lookahead=True, order="lookahead", validate=False)
    for k in (1, 2, 4):
        got = [tuple(sorted(g.numbers)) for g in strongest_guesses(view, k)]
        assert got[:k] == [s.numbers for s in ranked[:k]]
        # the rest tie with the k-th, and the next one does not
        rest = ranked[k:len(got)]
        assert all(_same_figures(s, ranked[k - 1]) for s in rest)
        assert len(got) == len(ranked) or not _same_figures(ranked[len(got)], ranked[k - 1])
    with pytest.raises(ValueError):
        strongest_guesses(view, 0)


def test_at_most_max_ties_answers_are_valued():
    state = new_game(8)
    bot = SearchFugitive(2, samples=1)
    bot.max_ties = 2
    det = determinize(fugitive_view(state), random.Random(0))
    after = apply(apply(det, PlaceHideout(2)), PassTurn())
    branches = bot._marshal_turn(after)
    assert len(branches) == 2 and sum(w for w, _ in branches) == pytest.approx(1.0)


def test_it_sees_only_its_view():
    # the same view from states whose hidden parts differ (her hand, the deck order):
    # the same seed gives the same move
    for seed in (1, 6):
        state = new_game(seed)
        f, m = RandomFugitive(seed), RandomMarshal(seed)
        rng = random.Random(seed)
        moves = 0
        while not state.is_over and moves < 3:
            view = fugitive_view(state)
            if state.current_player == "fugitive" and state.phase.value in ("fugitive_draw", "fugitive_opening"):
                other = determinize(view, rng)
                assert fugitive_view(other) == view and (other.marshal_hand, other.decks) != (state.marshal_hand, state.decks)
                a = SearchFugitive(seed, samples=1, time_budget=60).choose(view)
                b = SearchFugitive(seed, samples=1, time_budget=60).choose(fugitive_view(other))
                assert a == b
                moves += 1
            state = apply(state, f.choose(view) if state.current_player == "fugitive" else m.choose(marshal_view(state)))


def test_budget_in_rounds_and_seconds():
    state = new_game(3)
    bot = SearchFugitive(0, samples=2, time_budget=60)
    bot.choose(fugitive_view(state))
    assert bot.stats.rounds == 2
    quick = SearchFugitive(0, samples=50, time_budget=1e-9)
    move = quick.choose(fugitive_view(state))
    assert quick.stats.rounds <= 1 and quick.stats.valued >= 1
    apply(state, move)  # legal


def test_a_winning_escape_is_taken():
    found = 0
    for seed in range(400):
        state = new_game(seed)
        f, m = RandomFugitive(seed), RandomMarshal(seed)
        while not state.is_over and found < 2:
            view = fugitive_view(state)
            if (state.phase.value == "fugitive_place" and ESCAPE in view.legal_hideouts()
                    and max(state.up_numbers - {ESCAPE}) >= 30):
                move = SearchFugitive(seed, samples=1).choose(view)
                assert isinstance(move, PlaceHideout) and move.hideout == ESCAPE
                assert apply(state, move).winner == "fugitive"
                found += 1
                break
            state = apply(state, f.choose(view) if state.current_player == "fugitive" else m.choose(marshal_view(state)))
        if found >= 2:
            break
    assert found == 2


def test_features_read_her_posterior_of_his_hideouts():
    state = new_game(8)
    state = apply(state, PlaceHideout(3))
    state = apply(state, PassTurn())
    state = apply(state, Draw(1))
    state = apply(state, Draw(1))
    state = apply(state, SolverMarshal(0).choose(marshal_view(state)))  # she guesses 1: a miss
    x = dict(zip(("face_down", "hidden_mass", "max_belief", "top_is_his"), features(state, solve_cached(state.marshal_record(), validate=False))))
    assert x["face_down"] == 1.0
    assert x["max_belief"] == pytest.approx(0.5)  # 2 or 3 now
    assert x["hidden_mass"] == pytest.approx(0.5)
    assert x["top_is_his"] == 0.0  # she would guess 2 next
    assert 0.0 < value_of(features(state, solve_cached(state.marshal_record(), validate=False))) < 1.0


def test_fit_recovers_known_weights():
    from advisor.value_fit import fit

    rng = random.Random(5)
    true = (-0.5, 1.5, -2.0)
    rows = []
    for _ in range(6000):
        x = (rng.uniform(-1, 1), rng.uniform(-1, 1))
        p = value_of(x, true)
        rows.append((x, int(rng.random() < p)))
    got = fit(rows, ridge=0.0, signs=None)
    assert got == pytest.approx(true, abs=0.15)
    # held to signs, a weight that the data would give the other sign stays at zero
    held = fit(rows, ridge=0.0, signs=(+1, +1))
    assert held[2] == 0.0 and held[1] > 0.5


def test_search_bot_is_registered_and_takes_a_budget():
    bot = make_bot(FUGITIVE_BOTS["search"], 3, **Budget(2, 0.5).options())
    assert isinstance(bot, SearchFugitive) and bot.samples == 2 and bot.time_budget == 0.5


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", [Ruleset(), Ruleset("two", True)])
def test_search_fugitive_plays_legal_games(ruleset):
    for seed in (1, 2):
        state = play_game(SearchFugitive(seed, samples=1), SolverMarshal(seed), seed=seed, ruleset=ruleset)
        assert state.winner in ("marshal", "fugitive")


def test_tournament_counts_first_guess_wins_and_openings():
    from advisor.tournament import PairResult, opening_of, openings_table, won_on_first_guess

    alone = play_game(_Opening((PlaceHideout(1), PassTurn())), SolverMarshal(0), seed=4)
    assert opening_of(alone.events) == ((1, 0),)
    assert won_on_first_guess(alone.events) and alone.winner == "marshal"  # she guesses 1 first
    two = play_game(_Opening((PlaceHideout(2), PlaceHideout(3))), SolverMarshal(0), seed=4)
    assert opening_of(two.events) == ((2, 0), (3, 0)) and not won_on_first_guess(two.events)
    r = PairResult("solver", "x", 2, 2, 0, 0.0, 1, {((1, 0),): 1, ((2, 0), (3, 0)): 1})
    t = openings_table([r])
    assert "1/2 = 50.0%" in t and "| 50% |" in t and "2+0 3+0 (1)" in t


class _Opening:
    """Plays the given opening, then passes (or places the lowest card) for ever."""

    def __init__(self, opening):
        self.opening = list(opening)

    def choose(self, view):
        if self.opening:
            return self.opening.pop(0)
        if view.phase.value == "fugitive_draw":
            return Draw(view.legal_decks()[0])
        if view.can_pass:
            return PassTurn()
        return view.legal_moves()[0]


@pytest.mark.slow
def test_tournament_with_the_search_fugitive(tmp_path):
    from advisor.tournament import run_tournament, write_csv

    res = run_tournament(2, seed=0, jobs=2, marshals=["solver"], fugitives=["search"], progress=False,
                         budget=Budget(1, 30.0))
    assert [(r.marshal, r.fugitive, r.games) for r in res] == [("solver", "search", 2)]
    assert sum(res[0].openings.values()) == 2
    write_csv(res, tmp_path / "t.csv")
    assert "first_guess_wins" in (tmp_path / "t.csv").read_text()


def test_tournament_csvs_merge_into_one_table_and_chart(tmp_path, capsys):
    from advisor.tournament import PairResult, merge_main, read_csv, write_csv

    a = [PairResult("solver", "search", 10, 7, 2, 12.5, 1), PairResult("solver", "adversarial", 10, 9, 1, 1.0, 3)]
    b = [PairResult("lookahead", "search", 10, 8, 0, 10.0, 0), PairResult("lookahead", "adversarial", 10, 10, 0, 2.0, 4)]
    write_csv(a, tmp_path / "a.csv")
    write_csv(b, tmp_path / "b.csv")
    back = read_csv(tmp_path / "a.csv")
    assert [(r.marshal, r.fugitive, r.games, r.marshal_wins, r.manhunts, r.first_guess_wins) for r in back] == \
        [("solver", "search", 10, 7, 2, 1), ("solver", "adversarial", 10, 9, 1, 3)]
    assert back[0].seconds == pytest.approx(12.5, abs=0.01)
    assert merge_main([str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "--csv", str(tmp_path / "m.csv"),
                       "--png", str(tmp_path / "m.png")]) == 0
    assert "| lookahead | 80.0% " in capsys.readouterr().out
    assert len(read_csv(tmp_path / "m.csv")) == 4
    assert (tmp_path / "m.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(SystemExit):  # lookahead vs search missing: no chart with a hole in it
        merge_main([str(tmp_path / "a.csv"), str(tmp_path / "a.csv")])
    assert "a pairing repeats" in capsys.readouterr().err
    write_csv(b[1:], tmp_path / "c.csv")
    with pytest.raises(SystemExit):
        merge_main([str(tmp_path / "a.csv"), str(tmp_path / "c.csv")])
    assert "missing: lookahead vs search" in capsys.readouterr().err


def test_a_tournament_log_keeps_every_game_and_resumes(tmp_path, monkeypatch):
    import advisor.tournament as t

    log = tmp_path / "games.jsonl"
    first = t.run_tournament(3, seed=7, jobs=1, marshals=["notepad"], fugitives=["heuristic"], progress=False, log=str(log))
    lines = log.read_text().splitlines()
    assert len(lines) == 3 and {t.GameResult.from_json(x).seed for x in lines} == {7, 8, 9}
    # a run stopped in the middle of writing a line: that line is ignored, its game played again
    log.write_text("\n".join(lines[:2]) + "\n" + lines[2][:20])
    played = []
    real = t.play_one
    monkeypatch.setattr(t, "play_one", lambda task: played.append(task[2]) or real(task))
    again = t.run_tournament(4, seed=7, jobs=1, marshals=["notepad"], fugitives=["heuristic"], progress=False, log=str(log))
    assert played == [9, 10]  # seeds 7 and 8 were taken from the log
    assert again[0].games == 4
    assert t.read_log(log)[("notepad", "heuristic", 9)].winner in ("marshal", "fugitive")
    assert (again[0].marshal_wins - first[0].marshal_wins) == int(t.read_log(log)[("notepad", "heuristic", 10)].winner == "marshal")


def test_the_opening_is_drawn_among_the_near_best_hideout_sets_alike():
    """The opening varies with the hideout numbers (what her guess names): every set
    of hideouts within the spread of the best is drawn about as often, whatever the
    number of plans each has; a plan past the spread never is."""
    from collections import Counter

    from advisor.search import mixed_opening

    plans = [(PlaceHideout(1), PlaceHideout(2)), (PlaceHideout(1), PlaceHideout(2, frozenset({3}))),
             (PlaceHideout(1, frozenset({3})), PlaceHideout(2)), (PlaceHideout(2), PlaceHideout(3)),
             (PlaceHideout(1), PlaceHideout(3)), (PlaceHideout(3), PassTurn())]
    value = {0: 0.73, 1: 0.69, 2: 0.68, 3: 0.675, 4: 0.66, 5: 0.60}
    assert mixed_opening(plans, {5: 0.6}, 0.06, random.Random(0)) == 5  # an opening of one hideout
    rng = random.Random(0)
    picks = Counter(mixed_opening(plans, value, 0.06, rng) for _ in range(6000))
    assert 5 not in picks and 4 not in picks  # 0.66 and 0.60 are past 0.73 - 0.06
    sets = Counter({(1, 2): picks[0] + picks[1] + picks[2], (2, 3): picks[3]})
    assert abs(sets[(1, 2)] - sets[(2, 3)]) < 300  # each set half the time
    assert all(picks[i] > 700 for i in (0, 1, 2))  # and each plan of {1, 2} a third of that
    assert mixed_opening(plans, value, 0.0, rng) == 0  # no spread: the best


def test_the_search_opens_differently_on_different_deals():
    """Played out: the search Fugitive's first hideouts are not one fixed set."""
    from collections import Counter

    sets = Counter()
    for seed in range(8):
        state = new_game(seed)
        # one round of samples decides (0.3 s in all): a budget that is never reached, so
        # the outcome does not depend on the machine's load
        bot = SearchFugitive(seed=seed, samples=1, time_budget=60)
        placed = []
        while state.phase.name == "FUGITIVE_OPENING":
            move = bot.choose(fugitive_view(state))
            placed.append(move.hideout)
            state = apply(state, move)
        sets[tuple(sorted(placed))] += 1
    assert len(sets) >= 3 and max(sets.values()) <= 5, sets


def test_value_fit_names_an_unknown_marshal(capsys):
    """``python -m advisor.value_fit --marshal`` takes several bots; a name that is none
    of them is refused before any game is played, and the message names it."""
    from advisor.value_fit import main

    with pytest.raises(SystemExit) as exc:
        main(["--marshal", "lookahead-randomtie,lookahaed", "--games", "1"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "no Marshal bot lookahaed" in err and "lookahead-randomtie" in err.split("there are", 1)[1]
