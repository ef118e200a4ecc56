"""Run every benchmark module (``python -m bench [name ...]``)."""
from __future__ import annotations

import importlib
import pathlib
import sys
import time


def main(argv: list[str]) -> int:
    here = pathlib.Path(__file__).parent
    names = sorted(p.stem for p in here.glob("*_bench.py"))
    wanted = [a for a in argv if not a.startswith("-")]
    if wanted:
        names = [n for n in names if any(w in n for w in wanted)]
    for name in names:
        print(f"\n=== {name} ===", flush=True)
        start = time.perf_counter()
        importlib.import_module(f"bench.{name}").main()
        print(f"({name} took {time.perf_counter() - start:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
