"""The Marshal's coach (issue 32): each decision graded against the best one, checked
against the test's own counts (every set of every size), the draw advice and the
Manhunt planner themselves."""
from __future__ import annotations

import itertools

from advisor import bots
from advisor.cache import joint, solve_cached
from advisor.coach_marshal import DrawCall, GuessCall, ManhuntCall, best_guess, coach_marshal
from advisor.draws import advise_draw
from advisor.manhunt import plan_manhunt
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.record import ManhuntGuess


def _most_reveals(post, hand) -> float:
    """The most hideouts any guess reveals on average: every set of every size."""
    cands = [x for x, c in post.number_counts.items() if c and x not in hand]
    best = 0.0
    for k in range(1, post.face_down_count + 1):
        for s in itertools.combinations(cands, k):
            best = max(best, k * float(joint(post, s) if k > 1 else post.probability(s[0])))
    return best


def test_the_best_guess_is_the_best_of_every_set_of_every_size():
    checked = 0
    for seed in range(6):
        rec = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed).record().marshal_view()
        for cut in range(4, len(rec.events), 7):
            part = rec.truncated(cut)
            post = solve_cached(part)
            hand = part.marshal_cards
            cands = sum(1 for x, c in post.number_counts.items() if c and x not in hand)
            if not post.consistent or post.face_down_count < 2 or cands > 14 or post.face_down_count > 4:
                continue  # the test's own count: C(14, 4) joints at most
            got = best_guess(post, hand)
            assert got.exact and abs(got.reveals - _most_reveals(post, hand)) < 1e-12, (seed, cut)
            assert not set(got.numbers) & hand
            checked += 1
    assert checked >= 8


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
