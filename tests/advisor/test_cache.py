"""The records' analysis cache (advisor.cache): one analysis per record, one solve per
analysis, bounded by count and by what its posteriors hold, safe from threads, never wrong."""
from __future__ import annotations

import threading
import time

import pytest

from advisor import answers, cache
from engine.bots import RandomFugitive, RandomMarshal, play_game
from engine.record import Record
from solver.counting import OutOfTime
from solver.exact import InvalidRecord, solve


def _prefixes(seed: int, count: int):
    rec = play_game(RandomFugitive(seed), RandomMarshal(seed + 10_000), seed=seed).marshal_record()
    step = max(1, len(rec.events) // count)
    return [rec.truncated(i) for i in range(step, len(rec.events) + 1, step)][:count]


@pytest.fixture
def fresh(monkeypatch):
    """An empty cache of the default bounds, and a count of the solver's calls by record key."""
    monkeypatch.setattr(cache, "_analyses", cache.Analyses())
    calls: list[tuple[object, ...]] = []
    real = cache.solve

    def counted(record, *args, **kwargs):
        calls.append(record.key)
        return real(record, *args, **kwargs)

    monkeypatch.setattr(cache, "solve", counted)
    return calls


def _same(got, want) -> bool:
    return got.histories == want.histories and got.number_counts == want.number_counts


def test_the_same_record_twice_solves_once(fresh):
    full = play_game(RandomFugitive(3), RandomMarshal(10_003), seed=3).record()
    r = full.marshal_view().truncated(30)
    post = cache.solve_cached(r)
    # the same content: another object, the full record's prefix (hidden fields and all)
    again = Record(tuple(r.events), r.ruleset)
    assert cache.solve_cached(again) is post
    assert cache.solve_cached(full.truncated(30), validate=False) is post
    assert cache.analysis(again).posterior() is post
    assert fresh == [r.key]
    a = cache.analysis(r)
    assert a.record.key == r.key and a.record.fugitive_setup is None  # never a hidden field
    assert a.solve_ms >= 0 and cache.find(r) is a
    assert cache.find(r.truncated(29)) is None and cache.size() == 1  # find makes none


def test_two_records_do_not_mix(fresh):
    records = _prefixes(5, 6) + _prefixes(6, 6)
    got = [cache.solve_cached(r) for r in records]
    assert len(fresh) == len({r.key for r in records}) == len(records)
    for r, post in zip(records, got):
        assert _same(post, solve(r, validate=False))
        assert cache.solve_cached(r) is post
    assert len(fresh) == len(records)


def test_answers_are_kept_with_the_record(fresh, monkeypatch):
    r = _prefixes(7, 6)[-2]
    made: list[object] = []
    real = answers.advise_guesses

    def advise(record, **kwargs):
        made.append(record.key)
        return real(record, **kwargs)

    monkeypatch.setattr(answers, "advise_guesses", advise)
    first = answers.guess_advice(r, top=3, any_size=True)
    assert answers.guess_advice(r, top=3, any_size=True) is first
    assert [s.numbers for s in answers.guess_advice(r, top=5)] == [s.numbers for s in real(r, top=5)]
    assert len(made) == 2  # one per set of parameters
    assert fresh == [r.key]  # and every answer from the one solve
    cache.clear()
    assert answers.guess_advice(r, top=3, any_size=True) is not first  # gone with the record
    assert len(made) == 3 and len(fresh) == 2


def test_a_record_that_breaks_a_rule(fresh):
    r = _prefixes(8, 4)[-1]
    bad = Record(r.events + r.events[-1:], r.ruleset)  # the last entry twice
    for _ in range(2):
        with pytest.raises(InvalidRecord):
            cache.solve_cached(bad)
        assert cache.find(bad) is None  # nothing is kept of it
    unchecked = cache.solve_cached(bad, validate=False)  # what the bots ask (their records are the engine's)
    assert cache.solve_cached(bad, validate=False) is unchecked
    with pytest.raises(InvalidRecord):  # solved, but never passed the check
        cache.solve_cached(bad)


def test_the_bound_by_held_states(monkeypatch):
    monkeypatch.setattr(cache, "_analyses", cache.Analyses(states=600))
    records = _prefixes(5, 12) + _prefixes(6, 12)
    for r in records:
        cache.solve_cached(r)
        # the newest stays even when it alone is over the bound; otherwise the bound holds
        assert cache.held_states() <= 600
        assert cache.held_states() == sum(min(a.held_states(), 600) for a in cache._analyses.values())
    assert cache.size() < len(records)  # something was evicted
    # evicted or not, every answer is the solver's answer
    for r in records[:4] + records[-4:]:
        assert _same(cache.solve_cached(r), solve(r, validate=False))
    cache.clear()
    assert cache.held_states() == 0 and cache.size() == 0


def test_the_bound_by_count(monkeypatch):
    monkeypatch.setattr(cache, "_analyses", cache.Analyses(records=3))
    records = _prefixes(9, 8)
    for r in records:
        cache.solve_cached(r)
        assert cache.size() <= 3
    assert [cache.find(r) is not None for r in records] == [False] * 5 + [True] * 3  # the least recently used out
    cache.solve_cached(records[5])  # used again: the most recent
    cache.solve_cached(records[0])
    assert [cache.find(r) is not None for r in records[5:]] == [True, False, True]


def test_joints_weigh_their_posterior_again(fresh):
    r = _prefixes(7, 6)[-2]
    post = cache.solve_cached(r)
    before = cache.held_states()
    numbers = sorted(x for x, c in post.number_counts.items() if c)
    assert len(numbers) > 2  # so some pair needs a marked pass
    a, b = numbers[:2]
    assert cache.analysis(r).joint((a, b)) == post.joint((a, b))
    assert cache.held_states() > before  # the marked passes the joints kept
    # joints asked of the posterior itself (the advisor's searches) are weighed when
    # its record is next asked for
    for a, b in zip(numbers[1:], numbers[2:]):
        assert cache.joint(post, (a, b)) == post.joint((a, b))
    weighed = cache.held_states()
    cache.analysis(r)
    assert cache.held_states() >= weighed
    assert cache.held_states() == post.held_states()
    assert fresh == [r.key]


def test_a_posterior_keeps_its_joints():
    post = solve(_prefixes(7, 6)[-2])
    numbers = sorted(x for x, c in post.number_counts.items() if c)[:3]
    first = post.joint(numbers)
    assert post.joints_kept == 1
    assert post.joint(reversed(numbers)) is first and post.joints_kept == 1
    assert post.joint(numbers[:1]) == post.probability(numbers[0]) and post.joints_kept == 1


def test_threads_asking_one_record_wait_for_one_solve(fresh, monkeypatch):
    r = _prefixes(10, 4)[-1]
    real = cache.solve  # the counting one

    def slow(record, *args, **kwargs):
        time.sleep(0.2)
        return real(record, *args, **kwargs)

    monkeypatch.setattr(cache, "solve", slow)
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(cache.solve_cached(r))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(p is got[0] for p in got)
    assert fresh == [r.key]
    # a count with a deadline waits for another thread's solve no longer than its deadline
    other = _prefixes(10, 4)[-2]
    solver = threading.Thread(target=cache.solve_cached, args=(other,))
    solver.start()
    time.sleep(0.05)
    with pytest.raises(OutOfTime):
        cache.solve_cached(other, deadline=time.perf_counter() + 0.01)
    assert cache.find(other) is not None  # the other thread's solve goes on
    solver.join()
    assert fresh == [r.key, other.key]


def test_threads_on_many_records(monkeypatch):
    monkeypatch.setattr(cache, "_analyses", cache.Analyses(records=6, states=2_000))
    records = _prefixes(11, 8) + _prefixes(12, 8)
    want = {r.key: solve(r, validate=False) for r in records}
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            for r in records[k:] + records[:k]:
                post = cache.solve_cached(r, validate=k % 2 == 0)
                assert _same(post, want[r.key])
                numbers = sorted(x for x, c in post.number_counts.items() if c)[:2]
                if len(numbers) == 2:
                    assert cache.analysis(r).joint(numbers) == want[r.key].joint(numbers)
                assert cache.size() <= 6 and cache.held_states() <= 2_000
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert cache.held_states() == sum(min(a.held_states(), 2_000) for a in cache._analyses.values())
