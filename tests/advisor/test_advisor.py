"""Real behaviour of the advisor: advice on records with known answers, the Manhunt
planner against a brute force over guess orders, bots on views only, tournaments."""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from engine import marshal_view
from engine.bots import RandomFugitive, play_game
from engine.record import ManhuntGuess, Record, record_from_dict
from solver.exact import InvalidRecord, count_histories, solve

from advisor.bots import (
    AdversarialFugitive, HeuristicFugitive, LookaheadMarshal, NotepadMarshal, SolverMarshal,
    marshal_record_from_fugitive_view, notepad_candidates,
)
from advisor.draws import advise_draw
from advisor.guesses import advise_guesses, single_information
from advisor.manhunt import context, derive, plan_manhunt, settings, sprint_groups
from advisor.tournament import run_tournament, table, wilson, write_csv

HERE = Path(__file__).parent


def rec(*events, opening="one-or-two"):
    return record_from_dict({"format": "fugitive-record", "version": 1,
                             "ruleset": {"opening": opening, "pass_draw": False}, "events": list(events)})


P0 = {"type": "place", "sprints": 0}


def mdraw(c):
    return {"type": "marshal_draw", "card": c}


def miss(*n):
    return {"type": "guess", "numbers": list(n), "hit": False}


# ------------------------------------------------------------------ guess advice
def test_certain_number_ranks_first():
    # one hideout with no sprint: 1, 2 or 3; 1 and 2 missed -> 3 is certain
    r = rec(P0, mdraw(4), mdraw(5), miss(1), {"type": "fugitive_draw", "deck": 1}, {"type": "pass"},
            mdraw(6), miss(2), {"type": "fugitive_draw", "deck": 1}, {"type": "pass"}, mdraw(7))
    post = solve(r)
    assert post.certain == [3]
    s = advise_guesses(r)
    assert s[0].numbers == (3,) and s[0].p_hit == 1
    assert "certain" in s[0].reason and "wins the game" in s[0].reason


def test_joint_probabilities_match_posterior_and_ranking():
    r = rec(P0, P0, mdraw(20), mdraw(30))
    post = solve(r)
    sugg = advise_guesses(r, top=20, order="expected_reveals")
    assert sugg
    for s in sugg:
        assert s.p_hit == post.joint(s.numbers)
        assert s.expected_reveals == pytest.approx(float(s.p_hit) * len(s.numbers))
        assert 0 <= s.information_bits <= 6
        assert s.reason
    er = [s.expected_reveals for s in sugg]
    assert er == sorted(er, reverse=True)
    # the best single number is the most likely hideout
    singles = [s for s in sugg if len(s.numbers) == 1]
    best = max(post.number_counts, key=lambda x: post.number_counts[x])
    assert post.probability(singles[0].numbers[0]) == post.probability(best)
    by_p = advise_guesses(r, top=20, order="p_hit")
    assert [float(s.p_hit) for s in by_p] == sorted((float(s.p_hit) for s in by_p), reverse=True)


def test_information_of_a_single_guess_is_the_outcome_entropy():
    r = rec(P0)  # 1, 2, 3 each 1/3 at position 1
    post = solve(r)
    import math
    h = -(2 / 3) * math.log2(2 / 3) - (1 / 3) * math.log2(1 / 3)
    assert single_information(post, 2) == pytest.approx(h)


def test_hand_cards_are_never_suggested():
    r = rec(P0, P0, mdraw(4), mdraw(5))
    for s in advise_guesses(r, hand={4, 5}, top=20):
        assert not set(s.numbers) & {4, 5}


def test_lookahead_scores_at_least_the_immediate_reveals():
    r = rec(P0, P0, mdraw(20), mdraw(30))
    for s in advise_guesses(r, order="lookahead", top=5):
        assert s.lookahead is not None and s.lookahead >= s.expected_reveals - 1e-12


def test_draw_advice_names_an_open_deck_with_a_reason():
    r = rec(P0, P0)
    a = advise_draw(r)
    assert a.deck in (1, 2, 3) and a.reason


def fdraw(d):
    return {"type": "fugitive_draw", "deck": d}


def test_draw_advice_reads_the_decks_from_the_record():
    # deck 1 (8 cards after the setup) emptied by her draws 4-8 and his three draws
    r = rec(P0, mdraw(4), mdraw(5), miss(41), fdraw(1), {"type": "pass"}, mdraw(6), miss(40), fdraw(1),
            {"type": "pass"}, mdraw(7), miss(39), fdraw(1), {"type": "pass"}, mdraw(8), miss(38), fdraw(2),
            {"type": "pass"})
    a = advise_draw(r)
    assert a.deck in (2, 3) and 1 not in a.scores and "exhausted" in a.reason


def test_draw_advice_checks_the_record():
    with pytest.raises(InvalidRecord):
        advise_draw(rec(P0, mdraw(4), mdraw(4)))


# ------------------------------------------------------------------ Manhunt
def _hit(record: Record, x: int, p: int, S: tuple[int, ...]) -> Record:
    """The record after a Manhunt hit of x at position p over sprint cards S."""
    return Record(record.events + (ManhuntGuess(x, True, p, S),), record.ruleset)


def _brute_value(record: Record) -> Fraction:
    """Best guess order by brute force: every first guess, every explicit sprint set of
    every outcome (no grouping, no pruning, no memo), recursively."""
    post = solve(record, validate=False)
    m = post.face_down_count
    probs = {x: post.probability(x) for x, c in post.number_counts.items() if c}
    if m == 1:
        return max(probs.values())
    from solver.facts import extract

    facts = extract(record)
    known = facts.marshal_cards | facts.known_cards  # their places are public
    best = Fraction(0)
    for x in probs:
        v = Fraction(0)
        for q in post.positions:
            if q.revealed or not q.counts.get(x):
                continue
            free = [c for c in range(1, 42) if c not in known and c != x]
            for S in itertools.combinations(free, q.sprints):
                child = _hit(record, x, q.position, S)
                n = count_histories(child)
                if n:
                    v += Fraction(n, post.histories) * _brute_value(child)
        best = max(best, v)
    return best


@pytest.mark.parametrize("pairs", [True, False], ids=["pair-values", "search-only"])
@pytest.mark.parametrize("name, face_down", [("manhunt_small", 2), ("manhunt_three_a", 3), ("manhunt_three_b", 3)])
def test_manhunt_planner_matches_brute_force(monkeypatch, name, face_down, pairs):
    # pairs: a node with two face-down hideouts is valued from its own count, and a guess
    # at a node with three from the node's tagged count (without a tree; a tree is
    # searched); else every node is searched
    monkeypatch.setattr(settings, "PAIR_VALUES", pairs)
    context._EXACT.clear()
    r = Record.from_json((HERE / f"{name}.json").read_text())
    assert solve(r).face_down_count == face_down
    brute = _brute_value(r)
    assert plan_manhunt(r).value == brute
    context._EXACT.clear()
    plan = plan_manhunt(r, tree=True)
    assert plan.exact
    assert plan.value == brute
    assert 0 < plan.value_seconds <= plan.seconds
    assert plan.exact_within(plan.value_seconds) and not plan.exact_within(plan.value_seconds / 2)
    assert plan.first_guesses[plan.best_guess] == (plan.value, plan.value)
    assert all(hi <= plan.value for _, hi in plan.first_guesses.values())
    assert "exact" in plan.summary()
    # the tree's outcomes add up: probabilities to the value's hit chance, values to it
    tree = plan.tree
    assert tree["guess"] == plan.best_guess
    assert sum(o["probability"] * o["value"][0] for o in tree["outcomes"]) == plan.value
    assert sum(o["probability"] for o in tree["outcomes"]) == solve(r).probability(plan.best_guess)


def _game_nodes(seeds, rng, lowest: int, highest: int):
    """Manhunt nodes of seeded games: each escape record, then random hits (a random
    outcome of a random number) down to ``lowest`` face-down hideouts; yields the
    records on the way with ``lowest``..``highest`` face-down hideouts."""
    from advisor.tournament import play_pairing
    from engine.record import Place

    for seed in seeds:
        for m, f in (("random", "random"), ("notepad", "random"), ("random", "heuristic")):
            game = marshal_view(play_pairing(m, f, seed)).record
            events = game.events
            ends = [k for k, e in enumerate(events) if isinstance(e, Place) and e.hideout == 42 and k + 1 < len(events)]
            if not ends:
                continue
            r = Record(events[: ends[0] + 1], game.ruleset)
            while True:
                post = solve(r, validate=False)
                if lowest <= post.face_down_count <= highest:
                    yield r
                if post.face_down_count <= lowest:
                    break
                p, x = rng.choice([(q.position, x) for q in post.positions if not q.revealed for x in q.counts])
                groups = [S for S, _ in sprint_groups(post, r, x, p)]
                rng.shuffle(groups)
                r = next(_hit(r, x, p, S) for S in groups if count_histories(_hit(r, x, p, S)))


@pytest.mark.slow
def test_pair_values_equal_the_search_on_game_nodes(monkeypatch):
    """Every first guess of nodes with two, three and four face-down hideouts from
    seeded games: the same exact values from the nodes' own counts as from the search."""
    import random

    seen = {2: 0, 3: 0}
    for node in _game_nodes(range(6), random.Random(7), 2, 3):
        plans = []
        for pairs in (True, False):
            monkeypatch.setattr(settings, "PAIR_VALUES", pairs)
            context._EXACT.clear()
            plans.append(plan_manhunt(node, time_budget=60))
        a, b = plans
        assert a.exact and b.exact
        assert a.value == b.value and a.first_guesses == b.first_guesses
        seen[solve(node, validate=False).face_down_count] += 1
    assert seen[2] >= 5 and seen[3] >= 5
    # and a node with four, whose guesses lead to nodes of three
    r = Record.from_json((HERE / "manhunt_four.json").read_text())
    plans = []
    for pairs in (True, False):
        monkeypatch.setattr(settings, "PAIR_VALUES", pairs)
        context._EXACT.clear()
        plans.append(plan_manhunt(r, time_budget=60))
    assert plans[0].exact and plans[1].exact
    assert plans[0].value == plans[1].value and plans[0].first_guesses == plans[1].first_guesses


def test_tagged_passes_of_a_fresh_counter_match_the_marked_counts():
    """A Manhunt node's joint of hideouts (``fixed_joint`` of every number at its first
    face-down position) and pair counts come from tagged passes alone (no full forward
    or backward pass): each tuple's count equals the marked passes' count of histories
    through its numbers, and they add up to the posterior."""
    import random

    from solver.counting import new_counter
    from solver.facts import extract

    checked = {2: 0, 3: 0, 4: 0}
    for node in _game_nodes(range(4), random.Random(11), 2, 4):
        facts = extract(node.marshal_view())
        fresh = new_counter(facts)
        post = solve(node, validate=False)
        head = next(q for q in post.positions if not q.revealed)
        joint: dict[tuple[int, ...], int] = {}
        for x in head.counts:
            by_inc = fresh.fixed_joint(head.position, x)
            assert sum(sum(row.values()) for row in by_inc.values()) == head.counts[x]
            for row in by_inc.values():
                for rest, n in row.items():
                    joint[(x,) + rest] = joint.get((x,) + rest, 0) + n
        assert fresh.stored_states() == 0  # neither the forward nor the backward pass was made
        assert sum(joint.values()) == post.histories
        full = new_counter(facts)
        for hideouts, n in joint.items():
            assert n == full.through(hideouts)
        fd = [q for q in post.positions if not q.revealed]
        for t, q in enumerate(fd):
            by_number: dict[int, int] = {}
            for hideouts, n in joint.items():
                by_number[hideouts[t]] = by_number.get(hideouts[t], 0) + n
            assert {y: n for y, n in by_number.items() if n} == {y: n for y, n in q.counts.items() if n}
        if len(fd) == 2:  # both tables of the pair counts hold every history
            a, b, tables = fresh.pair_counts()
            first, second = tables[()]
            assert sum(sum(row.values()) for row in first.values()) == post.histories
            assert sum(sum(row.values()) for row in second.values()) == post.histories
        if len(fd) == 3:  # with x fixed at p: every history with x there
            q = fd[-1]
            x = max(q.counts, key=q.counts.get)
            a, b, tables = fresh.pair_counts((q.position, x))
            assert sum(sum(row.values()) for first, _ in tables.values() for row in first.values()) == q.counts[x]
        checked[len(fd)] += 1
    assert min(checked.values()) >= 3, checked


def test_children_derived_from_the_parents_passes_match_their_own_counts():
    """A child of a node with four face-down hideouts or more is not counted: its
    posterior comes from the parent's fixed joint and (with three left) its pair counts
    from the parent's passes with both hideouts fixed. Both equal the child's own
    count, sprint set by set."""
    import random
    import time

    from solver.counting import new_counter
    from solver.facts import extract

    rng = random.Random(5)
    checked = 0
    larger = 0  # children with four or five face-down hideouts
    for node in _game_nodes(range(8), rng, 4, 6):
        ctx = context._Ctx(deadline=time.perf_counter() + 600, max_solves=10**9)
        facts = extract(node.marshal_view())
        post = ctx.posterior((), facts)
        q = rng.choice([q for q in post.positions if not q.revealed])
        x = rng.choice(sorted(q.counts))
        groups = sprint_groups(post, node, x, q.position)
        for S, _ in rng.sample(groups, min(len(groups), 8)):
            child = context._add_hit((), x, q.position, S)
            child_facts = facts.with_reveal(q.position, x, S)
            derive._derive_child(ctx, (), facts, x, q.position, S, child, child_facts)
            got = ctx.posteriors[child]
            hit = _hit(node, x, q.position, S)
            assert got.consistent == (count_histories(hit) > 0)
            if not got.consistent:
                continue
            own = solve(hit, validate=False)
            assert got.histories == own.histories
            assert [p.counts for p in got.positions if not p.revealed] == [
                {y: n for y, n in p.counts.items() if n} for p in own.positions if not p.revealed]
            checked += 1
            if own.face_down_count > 3:
                larger += 1
                continue
            gone = frozenset(S)
            for r in (p for p in own.positions if not p.revealed):
                for y in r.counts:
                    pool, by_inc, left_out = ctx.pair_tables(child, child_facts, r.position, y)
                    assert left_out == gone
                    counter = new_counter(child_facts)
                    assert tuple(pool) == counter.free_cards
                    mine = counter.pair_counts((r.position, y))[2]
                    for inc, tables in by_inc.items():
                        for which in (0, 1):
                            derived = {k: {z: n for z, n in row.items() if n and z not in gone}
                                       for k, row in tables[which].items() if k[0] not in gone}
                            theirs = mine.get((inc,), ({}, {}))[which]
                            assert {k: v for k, v in derived.items() if v} == {k: v for k, v in theirs.items() if v}
    assert checked >= 30 and larger >= 15, (checked, larger)


def test_sprint_groups_cover_every_history():
    # position 2 has one hidden sprint card: the groups must add up to the marginal
    r = rec(P0, {"type": "place", "sprints": 1}, mdraw(20), mdraw(30))
    post = solve(r)
    q = post.positions[1]
    for x, target in q.counts.items():
        total = sum(count_histories(_hit_guess(r, x, 2, S)) * mult for S, mult in sprint_groups(post, r, x, 2))
        assert total == target


def _hit_guess(r, x, p, S):
    from engine.record import Guess, Reveal

    return Record(r.events + (Guess((x,), True, (Reveal(p, x, S),)),), r.ruleset)


def test_manhunt_out_of_budget_gives_rigorous_bounds():
    r = Record.from_json((HERE / "manhunt_four.json").read_text())
    assert solve(r).face_down_count == 4
    context._EXACT.clear()
    value = plan_manhunt(r).value
    context._EXACT.clear()
    plan = plan_manhunt(r, max_solves=3)
    assert not plan.exact and plan.lower <= value <= plan.upper
    assert not plan.exact_within(60.0)
    # the floor of a fixed guess set: a real strategy's value, so between 0 and the optimum
    from advisor.manhunt.plan import _fixed_set_floor

    floor, fixed = _fixed_set_floor(solve(r))
    assert 0 < floor <= value and plan.lower >= floor
    assert len(fixed) == solve(r).face_down_count
    assert "between" in plan.summary()
    with pytest.raises(ValueError):
        plan.value  # noqa: B018 - reading it raises


# ------------------------------------------------------------------ bots
class SpyMarshal:
    """Wraps a Marshal bot and checks it is handed nothing but a Marshal view."""

    def __init__(self, bot):
        self.bot = bot

    def choose(self, view):
        assert type(view).__name__ == "MarshalView"
        assert all(getattr(e, "sprint_cards", None) is None for e in view.events if e.type == "place")
        return self.bot.choose(view)


@pytest.mark.parametrize("marshal", [NotepadMarshal, SolverMarshal, LookaheadMarshal])
@pytest.mark.parametrize("fugitive", [RandomFugitive, HeuristicFugitive])
def test_bots_play_legal_games_from_views(marshal, fugitive):
    for seed in (2, 5):
        state = play_game(fugitive(seed), SpyMarshal(marshal(seed + 1)), seed=seed)  # apply() refuses illegal moves
        assert state.winner in ("marshal", "fugitive")


def test_adversarial_fugitive_plays_legal_games():
    state = play_game(AdversarialFugitive(3), SolverMarshal(4), seed=3)
    assert state.winner in ("marshal", "fugitive")


def test_notepad_candidates_never_rule_out_the_truth():
    from engine.game import apply, new_game
    from engine.views import fugitive_view

    for seed in range(6):
        state = new_game(seed)
        f, m = HeuristicFugitive(seed), NotepadMarshal(seed)
        while state.phase != "over":
            if state.phase.startswith("fugitive"):
                state = apply(state, f.choose(fugitive_view(state)))
                continue
            view = marshal_view(state)
            for pos, cands in notepad_candidates(view):
                assert state.row[pos].number in cands
            state = apply(state, m.choose(view))


def test_fugitive_reconstruction_of_the_marshal_record_is_public_and_consistent():
    from engine.game import apply, new_game
    from engine.views import fugitive_view

    state = new_game(11)
    f, m = HeuristicFugitive(1), SolverMarshal(2)
    for _ in range(40):
        if state.phase == "over":
            break
        if state.phase.startswith("fugitive"):
            v = fugitive_view(state)
            r = marshal_record_from_fugitive_view(v)
            assert not r.is_full
            assert all(getattr(e, "sprint_cards", None) is None for e in r.events if e.type == "place")
            assert solve(r).consistent
            state = apply(state, f.choose(v))
        else:
            state = apply(state, m.choose(marshal_view(state)))


# ------------------------------------------------------------------ tournament
def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_tournament_two_games_per_pairing(tmp_path):
    from advisor.bots import MARSHAL_BOTS

    res = run_tournament(2, seed=2, jobs=2, fugitives=["random", "heuristic"], progress=False)
    assert len(res) == 2 * len(MARSHAL_BOTS) and all(r.games == 2 for r in res)
    t = table(res)
    assert "notepad" in t and "heuristic" in t
    write_csv(res, tmp_path / "t.csv")
    assert (tmp_path / "t.csv").read_text().count("\n") == 2 * len(MARSHAL_BOTS) + 1
