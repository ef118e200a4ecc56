"""``fugitive tournament --ray``: the games as Ray tasks on a local Ray of two CPUs give
the same results as --jobs; a stopped run keeps the games that finished."""
from __future__ import annotations

import warnings

import pytest

import advisor.tournament as tournament
from advisor.tournament import run_tournament

BOTS = dict(marshals=["notepad", "random"], fugitives=["random", "heuristic"])


def _counts(results):
    return [(r.marshal, r.fugitive, r.games, r.marshal_wins, r.manhunts) for r in results]


@pytest.fixture(scope="module")
def local_ray():
    try:
        import ray
    except ImportError as exc:  # loud: the research extra should have installed it
        warnings.warn(f"Ray is not installed, the --ray tests are skipped: {exc}")
        pytest.skip(f"Ray is not installed (pip install -e '.[research]'): {exc}")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as exc:  # noqa: BLE001 -- any failure to start a local Ray is a reason to skip, said loudly
        warnings.warn(f"a local Ray could not start, the --ray tests are skipped: {exc!r}")
        pytest.skip(f"a local Ray could not start: {exc!r}")
    yield ray
    ray.shutdown()


@pytest.mark.slow
def test_ray_gives_the_same_results_as_jobs(local_ray):
    on_ray = run_tournament(6, seed=11, marshals=BOTS["marshals"], fugitives=BOTS["fugitives"], progress=False,
                            ray_address="")
    local = run_tournament(6, seed=11, jobs=2, progress=False, **BOTS)
    assert not on_ray.stopped and _counts(on_ray) == _counts(local)
    assert sum(r.games for r in on_ray) == 24


@pytest.mark.slow
def test_a_stopped_ray_run_keeps_the_games_that_finished(local_ray, monkeypatch):
    calls = {"n": 0}
    wait = local_ray.wait

    def interrupted(refs, num_returns=1):
        calls["n"] += 1
        if calls["n"] > 5:
            raise KeyboardInterrupt
        return wait(refs, num_returns=num_returns)

    monkeypatch.setattr(local_ray, "wait", interrupted)
    got = run_tournament(6, seed=11, progress=False, ray_address="", **BOTS)
    assert got.stopped and got.planned == 24
    assert 5 <= sum(r.games for r in got) < 24  # five tasks of one game or more


def test_a_stopped_local_run_keeps_the_games_that_finished(monkeypatch):
    real = tournament.play_one
    played = []

    def play_then_stop(task):
        if len(played) == 7:
            raise KeyboardInterrupt
        played.append(task)
        return real(task)

    monkeypatch.setattr(tournament, "play_one", play_then_stop)
    got = run_tournament(6, seed=11, jobs=1, progress=False, **BOTS)
    assert got.stopped and got.planned == 24 and sum(r.games for r in got) == 7
    full = run_tournament(6, seed=11, jobs=1, progress=False, **BOTS)
    first = {(m, f): sum(1 for t in played if t[:2] == (m, f)) for m in BOTS["marshals"] for f in BOTS["fugitives"]}
    assert [r.games for r in got] == [first[(r.marshal, r.fugitive)] for r in full]
