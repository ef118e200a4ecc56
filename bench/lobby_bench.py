"""The lobby under load (issue 38): simulated signed-in players posting and joining
challenges and playing rated matches through the store's own calls, from two
processes at once, on a throwaway PostgreSQL server (harness/lobby_load.py); then
every rating against the library's replay, nothing lost or doubled.

``LOBBY_BENCH_PLAYERS`` (200), ``LOBBY_BENCH_MATCHES`` (1000) and
``LOBBY_BENCH_SECONDS`` (600: the bound in time) set the size.
"""
from __future__ import annotations

import os

from harness import lobby_load, postgres

PLAYERS = int(os.environ.get("LOBBY_BENCH_PLAYERS", "200"))
MATCHES = int(os.environ.get("LOBBY_BENCH_MATCHES", "1000"))
SECONDS = float(os.environ.get("LOBBY_BENCH_SECONDS", "600"))


def main() -> None:
    why = postgres.missing()
    if why:
        print(f"postgresql: not measured: {why}")
        return
    print(f"{PLAYERS} players, up to {MATCHES} rated matches, 2 processes, at most {SECONDS:.0f} s")
    with postgres.throwaway_server(durable=True) as server:
        db = server.new_database()
        print("postgresql: " + lobby_load.run(db, players=PLAYERS, matches=MATCHES, time_limit=SECONDS).line(),
              flush=True)
        print("the lobby in Chromium at that size: " + browser_check(db), flush=True)


def browser_check(db: str, rounds: int = 5) -> str:
    """On the loaded database: a player watching the lobby in Chromium (390x844, an
    account of a real OpenID provider on this machine) on an app server, and another
    player posting challenges from another process (the store's own call, as her app
    server makes it); from each challenge's commit to the watcher's page showing it."""
    import pathlib
    import tempfile
    import time

    from engine.record import Ruleset
    from harness import browser, oidc
    from notepad.access import Principal
    from notepad.store import GameStore

    why = browser.missing() or oidc.missing()
    if why:
        return f"not measured: {why}"
    seen: list[float] = []
    with GameStore(db) as store, tempfile.TemporaryDirectory() as folder, oidc.provider() as issuer:
        secrets = oidc.secrets_file(pathlib.Path(folder), issuer)
        with browser.app_server(db, options=("--secrets.files", str(secrets))) as url, \
                browser.phone_pages(1) as (watcher,):
            oidc.sign_in(watcher, url, "watcher")
            watcher.goto(url + "/?page=lobby")
            watcher.wait_for_selector('[data-testid="fg-my-ratings"]')
            poster = Principal.account(issuer, "poster", "poster")
            for _ in range(rounds):
                ch = store.post_challenge(poster, "either", Ruleset(), "live")
                start = time.monotonic()
                watcher.wait_for_selector(f'[data-testid="fg-challenge"][data-id="{ch.id}"]', timeout=10_000)
                seen.append(time.monotonic() - start)
                store.cancel_challenge(ch.id, poster)
                time.sleep(0.5)
    seen.sort()
    return f"{len(seen)} new challenges: median {seen[len(seen) // 2]:.2f} s, max {seen[-1]:.2f} s (target: under 1 s)"
