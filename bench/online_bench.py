"""A move on one phone, shown on the other: the online match's latency (issue 30).

The Marshal's page of a match played by links is open in headless Chromium at
390x844 (her browser: her owner key); the moves of both sides are saved through the
store as the other phone's page saves them (a random-bot match, every move with the
version it was made from, the silent ones noted as the page notes them). For each
move the clock runs from the moment the save is committed until her page shows the
new version (its status line's ``data-version``, read every 20 ms): the page's live
fragment reads the stored version every ``app.online.LIVE_SECONDS`` and then the
page runs again and is drawn.

The machine is loaded on purpose: ``ONLINE_BENCH_LOAD`` (default 2) processes spin
on the CPU the whole time, so on the 2-core machine the server, the browser and the
bench share what is left (the target: every move within 2 s, the median within 1 s).
``ONLINE_BENCH_MOVES`` (default 60) moves, over as many matches as it takes.
"""
from __future__ import annotations

import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness import browser  # noqa: E402

MOVES = int(os.environ.get("ONLINE_BENCH_MOVES", "60"))
LOAD = int(os.environ.get("ONLINE_BENCH_LOAD", "2"))


def _spin(stop) -> None:
    x = 0
    while not stop.is_set():
        for i in range(100_000):
            x ^= i


def _matches(store, key: str):
    """Matches by links made for the Marshal's browser ``key`` (the Fugitive's seat
    taken by another browser), each yielding (game id, save) per move: ``save()``
    saves the next move and returns its new version, or None at the end."""
    from app import match_logic as ml
    from app.match_meta import MatchMeta
    from engine import apply, fugitive_view, marshal_view, new_game
    from engine.bots import RandomFugitive, RandomMarshal
    from store.access import Role, new_owner_key

    seed = 0
    while True:
        seed += 1
        state = new_game(seed)
        meta = MatchMeta(seed, ml.ONLINE, claim_after=86400)
        invite = store.create_match(state.record(), side="marshal", owner_key=key, metadata=meta.to_json())
        gid = invite.game.id
        fkey = new_owner_key()
        store.join(gid, invite.secret(Role.FUGITIVE), fkey)
        bots = {"fugitive": RandomFugitive(seed), "marshal": RandomMarshal(seed)}
        box = {"state": state, "meta": meta}

        def save(gid=gid, box=box, bots=bots, fkey=fkey) -> int | None:
            before = box["state"]
            if before.is_over:
                return None
            who = before.current_player
            view = fugitive_view(before) if who == "fugitive" else marshal_view(before)
            move = bots[who].choose(view)
            after = apply(before, move)
            meta = box["meta"]
            member = (fkey, Role.FUGITIVE) if who == "fugitive" else (key, Role.MARSHAL)
            store.save(gid, after.record(), metadata=meta.to_json(), expected_version=store.version(gid), member=member)
            box["state"], box["meta"] = after, meta
            return store.version(gid)

        yield gid, save


def main() -> None:
    why = browser.missing()
    if why:
        print(why)
        return
    from store import GameStore
    from store.access import new_owner_key

    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=_spin, args=(stop,), daemon=True) for _ in range(LOAD)]
    for p in spinners:
        p.start()
    shown: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "bench.sqlite3"
            store = GameStore(db)
            key = new_owner_key()
            with browser.app_server(db) as url, browser.phone_page() as page:
                # the phone is the maker's browser: her key in its cookie (no URL says who it is)
                page.context.add_cookies([{"name": "fugitive_owner", "value": key, "url": url}])
                for gid, save in _matches(store, key):
                    page.goto(f"{url}/?page=match&game={gid}")
                    page.wait_for_selector('[data-testid="fg-status"]')
                    browser.wait_idle(page)
                    while len(shown) < MOVES:
                        version = save()
                        if version is None:
                            break
                        t0 = time.monotonic()
                        page.wait_for_function(
                            "v => { const s = document.querySelector('[data-testid=\"fg-status\"]');"
                            " return s && Number(s.dataset.version) >= v; }", arg=version, timeout=30_000, polling=20)
                        shown.append(time.monotonic() - t0)
                        browser.wait_idle(page)
                    if len(shown) >= MOVES:
                        break
            store.close()
    finally:
        stop.set()
        for p in spinners:
            p.join()
    s = sorted(shown)
    print(f"online: a move saved on one phone, shown on the other (390x844 headless Chromium, SQLite, "
          f"{LOAD} processes spinning on the CPU, load average {os.getloadavg()[0]:.1f}): {len(s)} moves, "
          f"median {statistics.median(s):.2f} s, p90 {s[int(0.9 * (len(s) - 1))]:.2f} s, max {s[-1]:.2f} s")


if __name__ == "__main__":
    main()
