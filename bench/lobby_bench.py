"""The lobby under load (issue 38), on PostgreSQL with two app servers.

A throwaway PostgreSQL server (fsync on) and two real Streamlit app servers of the
app on one database of it, with accounts from a real OpenID provider on this machine
(``harness.lobby_load.app_servers``). While both serve, with a signed-in player's
lobby open on each (their pages run again at every lobby change), 200 simulated
players post and join challenges and play 1,000 rated matches through the store's own
calls from two processes (``harness.lobby_load.run``); then every rating is checked
against the library's replay, nothing lost or doubled. Then, on that loaded
database, the browser check across the two servers: a player on the first server
posts a challenge with the lobby's own controls (the first server takes it), and a
player watching the lobby on the second server must see it within 1 s (and its
cancel) (``harness.lobby_load.new_challenge_check``).

``LOBBY_BENCH_PLAYERS`` (200), ``LOBBY_BENCH_MATCHES`` (1000) and
``LOBBY_BENCH_SECONDS`` (600: the bound in time) set the size; ``LOBBY_BENCH_ROUNDS``
(10) the challenges of the browser check.
"""
from __future__ import annotations

import os
import subprocess

from harness import lobby_load, postgres
from store import GameStore

PLAYERS = int(os.environ.get("LOBBY_BENCH_PLAYERS", "200"))
MATCHES = int(os.environ.get("LOBBY_BENCH_MATCHES", "1000"))
SECONDS = float(os.environ.get("LOBBY_BENCH_SECONDS", "600"))
ROUNDS = int(os.environ.get("LOBBY_BENCH_ROUNDS", "10"))


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return "uptime: not available"


def main() -> None:
    import logging

    from harness import browser, oidc

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # the OpenID provider's request log

    why = postgres.missing()
    if why:
        print(f"postgresql: not measured: {why}")
        return
    print(f"{PLAYERS} players, up to {MATCHES} rated matches, 2 processes, at most {SECONDS:.0f} s")
    print(f"before: {_uptime()}", flush=True)
    with postgres.throwaway_server(durable=True) as server:
        db = server.new_database()
        why = browser.missing() or oidc.missing()
        if why:  # the load alone, said loudly
            print(f"NO APP SERVERS: {why}")
            print("postgresql: " + lobby_load.run(db, players=PLAYERS, matches=MATCHES, time_limit=SECONDS).line())
            return
        with lobby_load.app_servers(db) as (one, two, issuer), browser.phone_pages(4) as pages:
            print(f"two app servers on it: {one} and {two}", flush=True)
            for page, url, who in zip(pages, (one, two), ("looker1", "looker2")):
                oidc.sign_in(page, url, who)
                page.goto(url + "/?page=lobby")
                page.wait_for_selector('[data-testid="fg-my-ratings"]')
            report = lobby_load.run(db, players=PLAYERS, matches=MATCHES, time_limit=SECONDS)
            print("postgresql: " + report.line(), flush=True)
            with GameStore(db) as store:
                print(f"on the lobby now: {len(store.challenges())} open challenges, "
                      f"{len(store.live_lobby_matches())} live matches", flush=True)
            print(f"after the load: {_uptime()}", flush=True)
            seen = lobby_load.new_challenge_check(db, one, two, issuer, pages[2], pages[3], rounds=ROUNDS)
            print("the lobby in Chromium on the two app servers at that size: " + seen.line(), flush=True)
    print(f"after: {_uptime()}", flush=True)
