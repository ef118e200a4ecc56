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
        print("postgresql: " + lobby_load.run(server.new_database(), players=PLAYERS, matches=MATCHES,
                                               time_limit=SECONDS).line(), flush=True)
