"""Notepad speed: validating a 200-event record and appending one entry.

Targets: a whole 200-event record validated in <= 5 ms (the app re-validates on
every correction and undo), one entry appended in <= 1 ms (the app checks every
entry as it is typed). Also prints a save to SQLite, which happens after every entry.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from engine.record import Record, Ruleset
from notepad import Notepad, Validator, validate
from store import GameStore

LENGTH = 200


def long_record(length: int = LENGTH) -> Record:
    """The first bot game with at least ``length`` events, cut there (the Marshal's view).

    Engine games are the realistic input: draws, passes, multi-number guesses,
    reveals, the endgame with empty decks.
    """
    from engine.bots import RandomFugitive, RandomMarshal, play_game

    for seed in range(100_000):
        ruleset = Ruleset("one-or-two", seed % 2 == 1)
        state = play_game(RandomFugitive(seed), RandomMarshal(seed), seed=seed, ruleset=ruleset)
        record = state.marshal_record()
        if len(record.events) >= length:
            return record.truncated(length)
    raise RuntimeError(f"no bot game reached {length} events")


def _best_ms(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return min(times), statistics.median(times)


def main() -> None:
    record = long_record()
    full_len = len(record.events)
    print(f"record: {full_len} events (Marshal's view of a bot game), ruleset {record.ruleset.to_dict()}")

    best, median = _best_ms(lambda: validate(record), 200)
    print(f"validate {full_len}-event record: best {best:.2f} ms, median {median:.2f} ms (target <= 5 ms)")

    # appending one entry: the 200th event onto a notepad holding the first 199
    head, last = record.truncated(full_len - 1), record.events[-1]
    pads = [Notepad.from_record(head) for _ in range(500)]
    times = []
    for pad in pads:
        t0 = time.perf_counter()
        pad.append(last)
        times.append((time.perf_counter() - t0) * 1000)
    print(f"append one entry (199 -> 200): best {min(times) * 1000:.1f} us, "
          f"median {statistics.median(times) * 1000:.1f} us (target <= 1 ms)")

    v = Validator(record.ruleset)
    per_event = []
    for e in record.events:
        t0 = time.perf_counter()
        v.push(e)
        per_event.append((time.perf_counter() - t0) * 1000)
    print(f"push each event of the record: mean {statistics.mean(per_event) * 1000:.1f} us, "
          f"worst {max(per_event) * 1000:.1f} us")

    best, median = _best_ms(lambda: v.allowed_next(), 200)
    print(f"allowed_next() at event {full_len}: median {median * 1000:.1f} us")

    pad = Notepad.from_record(record)
    best, median = _best_ms(lambda: (pad.undo(), pad.append(record.events[-1])), 100)
    print(f"undo + re-append at {full_len} events: median {median:.2f} ms")

    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "bench.sqlite3")
        gid = store.create(record).id
        best, median = _best_ms(lambda: store.save(gid, record), 50)
        print(f"save the {full_len}-event game to SQLite (validated, one transaction): median {median:.2f} ms")


if __name__ == "__main__":
    main()
