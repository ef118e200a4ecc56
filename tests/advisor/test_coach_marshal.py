"""The Marshal's coach (issue 32): each decision graded against the best one, checked
against the test's own counts (every set of every size: the best set of each size,
moved here from the app with issue 16's test of it, and the best guess of any size),
the draw advice and the Manhunt planner themselves."""
from __future__ import annotations

import itertools
from fractions import Fraction

from advisor import bots
from advisor.cache import joint, solve_cached
from advisor.coach_marshal import DrawCall, GuessCall, ManhuntCall, best_guess, best_set, coach_marshal
from advisor.draws import advise_draw
from advisor.manhunt import plan_manhunt
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.record import ManhuntGuess


def _best_joints(post, hand, sizes) -> dict[int, Fraction]:
    """Size -> the highest joint probability of a set of that size: every set tried."""
    cands = [x for x, c in post.number_counts.items() if c and x not in hand]
    return {k: max(joint(post, s) if k > 1 else post.probability(s[0]) for s in itertools.combinations(cands, k))
            for k in sizes}


def test_the_best_sets_and_the_best_guess_are_the_best_of_every_set_of_every_size():
    sets = guesses = 0
    for seed in range(6):
        rec = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed).record().marshal_view()
        for cut in range(4, len(rec.events), 7):
            part = rec.truncated(cut)
            post = solve_cached(part)
            if not post.consistent or post.face_down_count < 2:
                continue
            hand = part.marshal_cards
            cands = sum(1 for x, c in post.number_counts.items() if c and x not in hand)
            # the test's own count: C(16, 3) joints at most per size, or every size when
            # there are at most 4 hideouts among at most 14 numbers
            every = post.face_down_count <= 4 and cands <= 14
            top = post.face_down_count if every else (3 if cands <= 16 else 2)
            best = _best_joints(post, hand, range(1, min(top, post.face_down_count, cands) + 1))
            for k, p in best.items():
                got = best_set(post, k, hand)
                assert got.exact and got.p == p, (seed, cut, k)
                sets += 1
            if every:
                guess = best_guess(post, hand)
                assert guess.exact and abs(guess.reveals - max(k * float(p) for k, p in best.items())) < 1e-12, (seed, cut)
                assert not set(guess.numbers) & hand
                guesses += 1
    assert sets > 20 and guesses >= 8


def test_draws_and_manhunt_guesses_are_graded_by_the_advice_and_the_planner_themselves():
    final = play_game(bots.make_bot(bots.FUGITIVE_BOTS["adversarial"], 2), bots.make_bot(bots.MARSHAL_BOTS["notepad"], 2),
                      seed=2)
    record = final.record().marshal_view()
    calls = coach_marshal(record)
    draws = [c for c in calls if isinstance(c, DrawCall)]
    hunts = [c for c in calls if isinstance(c, ManhuntCall)]
    guesses = [c for c in calls if isinstance(c, GuessCall)]
    assert draws and hunts and guesses
    assert len(calls) == sum(1 for e in record.events if e.type in ("marshal_draw", "guess", "manhunt_guess"))
    for c in draws:
        advice = advise_draw(record.truncated(c.index))
        assert c.best == advice.deck and {d.deck: d.score for d in c.decks} == advice.scores
        assert c.is_best == (advice.scores[c.deck] >= advice.scores[c.best] - 1e-12)
    # some of the notepad Marshal's draws and guesses are not the best: they are said so
    assert any(not c.is_best for c in draws) and any(not c.is_best for c in guesses)
    for c in hunts:
        before = record.truncated(c.index)
        plan = plan_manhunt(before, time_budget=10.0)
        assert plan.exact and c.best == plan.best_guess and abs(c.best_value[0] - float(plan.value)) < 1e-12
        lo, hi = plan.first_guesses.get(c.number, (0, 0))  # a number no history has: not a first guess, worth 0
        assert c.value == (float(lo), float(hi)) and (c.p > 0 or c.value == (0.0, 0.0))
        assert isinstance(record.events[c.index], ManhuntGuess) and c.is_best == (c.value[0] >= c.best_value[1] - 1e-12)


def test_the_suggestion_panel_and_the_coach_name_the_same_best_guess():
    """Issue 39, point 8: the suggestions' first guess reveals as many hideouts on average
    as the coach's best (a set of any size: once the panel offered 10+14 where the coach
    said 10+14+18), and they name the same guess; both search one budget (MAX_SETS).
    The app's panel asks for it (``any_size``: tests/app/test_coach_wording.py)."""
    from advisor.guesses import advise_guesses

    compared = larger = 0
    for seed in range(8):
        final = play_game(bots.make_bot(bots.FUGITIVE_BOTS["heuristic"], seed),
                          bots.make_bot(bots.MARSHAL_BOTS["solver"], seed), seed=seed)
        record = final.record().marshal_view()
        for call in coach_marshal(record):
            if not isinstance(call, GuessCall) or not call.best.numbers:
                continue
            top = advise_guesses(record.truncated(call.index), any_size=True)[0]
            assert abs(top.expected_reveals - call.best.reveals) < 1e-12, (seed, call.index, top.numbers, call.best)
            assert top.numbers == call.best.numbers, (seed, call.index)
            compared += 1
            larger += len(call.best.numbers) > 2
    assert compared >= 30 and larger >= 1, (compared, larger)
