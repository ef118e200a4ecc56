"""The store under load: 50 bot-against-bot matches played through it by two
processes at once, on SQLite and on PostgreSQL (harness/store_load.py).

Every move is made by the app's match controller (``app.match_control.Matches``:
opened as the seat's holder, played from the version opened), the path of a tap on
the match page. Two ways (see harness.store_load): ``seats``, one process per seat
of every match (two app servers, each serving one player), and ``race``, both
processes making whichever move is due in every match (one save of each pair is
refused as stale).
Every match is checked after the run: it ends exactly as played alone, its version
counts its moves (no move lost or doubled), its record passes the validator.

The PostgreSQL server is a throwaway one on a Unix socket, run as a server would be
(fsync on, as SQLite's default synchronous=FULL is). Loopback only: the socket is
in a temporary folder. ``STORE_BENCH_MATCHES`` sets the number of matches.
"""
from __future__ import annotations

import os
import tempfile

from harness import postgres, store_load

MATCHES = int(os.environ.get("STORE_BENCH_MATCHES", "50"))


def main() -> None:
    print(f"{MATCHES} bot-against-bot matches through the store, 2 processes at once")
    with tempfile.TemporaryDirectory() as folder:
        for mode in ("seats", "race"):
            print(store_load.run(os.path.join(folder, f"{mode}.sqlite3"), matches=MATCHES, mode=mode).line(),
                  flush=True)
    why = postgres.missing()
    if why:
        print(f"postgresql: not measured: {why}")
        return
    with postgres.throwaway_server(durable=True) as server:
        for mode in ("seats", "race"):
            print(store_load.run(server.new_database(), matches=MATCHES, mode=mode).line(), flush=True)
