"""The advisor's solve cache: bounded by what its posteriors hold, never wrong."""
from __future__ import annotations

from advisor import cache
from engine.bots import RandomFugitive, RandomMarshal, play_game
from solver.exact import solve


def _prefixes(seed: int, count: int):
    rec = play_game(RandomFugitive(seed), RandomMarshal(seed + 10_000), seed=seed).marshal_record()
    step = max(1, len(rec.events) // count)
    return [rec.truncated(i) for i in range(step, len(rec.events) + 1, step)][:count]


def test_cache_is_bounded_by_held_states(monkeypatch):
    cache.clear()
    monkeypatch.setattr(cache, "_MAX_STATES", 600)
    records = _prefixes(5, 12) + _prefixes(6, 12)
    for r in records:
        cache.solve_cached(r)
        # the newest stays even when it alone is over the bound; otherwise the bound holds
        assert cache.held_states() <= 600 or len(cache._posteriors) == 1
        assert cache.held_states() == sum(cache._sizes.values())
    assert len(cache._posteriors) < len(records)  # something was evicted
    # evicted or not, every answer is the solver's answer
    for r in records[:4] + records[-4:]:
        got, want = cache.solve_cached(r), solve(r, validate=False)
        assert got.histories == want.histories and got.number_counts == want.number_counts
    cache.clear()
    assert cache.held_states() == 0


def test_joints_weigh_their_posterior_again(monkeypatch):
    cache.clear()
    r = _prefixes(7, 6)[-2]
    post = cache.solve_cached(r)
    before = cache.held_states()
    numbers = sorted(x for x, c in post.number_counts.items() if c)
    assert len(numbers) > 2  # so some pair needs a marked pass
    for a, b in zip(numbers, numbers[1:]):
        assert cache.joint(post, (a, b)) == post.joint((a, b))
    assert cache.held_states() > before  # the marked passes the joints kept
    assert cache.held_states() == sum(cache._sizes.values())
    cache.clear()
