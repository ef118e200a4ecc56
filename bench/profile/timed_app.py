"""The app's entry point with a clock around each full run of the page script: one
line "<wall time> <ms>" per run appended to $FUGITIVE_RUN_LOG (used by
``bench/app_profile.py``; fragment reruns do not run this file)."""
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.main import run  # noqa: E402

_start = time.perf_counter()
try:
    run()
finally:
    with open(os.environ["FUGITIVE_RUN_LOG"], "a") as _log:
        _log.write(f"{time.time():.4f} {1000 * (time.perf_counter() - _start):.2f}\n")
