"""The server's share of a tap on the assistant's pad (issue 36): not a benchmark of
record (``bench/app_bench.py`` is), a split of the server's own work per entry, without
Streamlit or a browser: the entry appended and saved, the page's look at the store and
its copy, the solve (uncached: every record is new), the pad's HTML built.

``python -m bench.pad_server_profile [kind:seed ...]`` (default ``random:0``) prints
the median and the largest of each, and the size of the pad's HTML. What is not here
(Streamlit's rerun, the websocket, the browser's redraw) is the rest of
``python -m bench app``'s figure.
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def profile(kind: str, seed: int) -> None:
    from app import pad_view
    from app.assistant_logic import Assistant, AssistantSession, OpenGame
    from engine.record import Record
    from harness.taps import game_events
    from solver import solve
    from store import GameStore

    events = game_events(kind, seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "g.sqlite3")
        gid = store.create(Record()).id
        assistant, session = Assistant(store, solve, None), AssistantSession()
        spans: dict[str, list[float]] = {"append and save": [], "look at the store": [], "solve": [],
                                         "pad HTML": []}
        size = 0
        for event in events:
            game = assistant.game(session, gid)
            assert isinstance(game, OpenGame)
            t0 = time.perf_counter()
            game.pad.append(event)
            store.save(gid, game.pad.record, expected_version=game.stored)
            game.stored += 1
            t1 = time.perf_counter()
            assistant.follow(session, gid)
            game = assistant.game(session, gid)
            assert isinstance(game, OpenGame)
            t2 = time.perf_counter()
            post = solve(game.pad.record)
            t3 = time.perf_counter()
            view = pad_view.build(gid, game, session.draft(gid), None, post, None, None)
            t4 = time.perf_counter()
            for name, span in zip(spans, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                spans[name].append(1000 * span)
            size = max(size, len(view.html))
    print(f"{kind}:{seed} ({len(events)} entries): " + "; ".join(
        f"{name} p50 {statistics.median(v):.2f} ms, max {max(v):.1f} ms" for name, v in spans.items())
        + f"; the pad's HTML up to {size / 1000:.1f} KB")


def main(argv: list[str]) -> None:
    for game in argv or ["random:0"]:
        kind, seed = game.split(":")
        profile(kind, int(seed))


if __name__ == "__main__":
    main(sys.argv[1:])
