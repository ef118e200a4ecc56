"""The app's entry point with a clock around each full run of the page script: one
line "<wall time> <ms>" per run appended to $FUGITIVE_RUN_LOG (used by
``bench/app_profile.py``; fragment reruns do not run this file). The assistant's
game page (a fragment: its reruns do not pass here) and the entry callbacks are
clocked too, in wall time, so the profile can put them on the page's clock: lines
"frag <start> <end>", "enter <start> <end>" and "solve <start> <end>"."""
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app import assistant  # noqa: E402
from app.main import run  # noqa: E402


def _clocked(name: str, fn):
    if getattr(fn, "_fg_clocked", False):
        return fn

    def wrapper(*args, **kwargs):
        start = time.time()
        try:
            return fn(*args, **kwargs)
        finally:
            with open(os.environ["FUGITIVE_RUN_LOG"], "a") as log:
                log.write(f"{name} {start:.4f} {time.time():.4f}\n")

    wrapper._fg_clocked = True
    return wrapper


if os.environ.get("FUGITIVE_SWITCH_INTERVAL"):  # an experiment: how often CPython hands the GIL over
    sys.setswitchinterval(float(os.environ["FUGITIVE_SWITCH_INTERVAL"]))

assistant._game_body = _clocked("frag", assistant._game_body)
assistant.enter = _clocked("enter", assistant.enter)
assistant._solve = _clocked("solve", assistant._solve)  # the probabilities are sent right after it

_start = time.perf_counter()
try:
    run()
finally:
    with open(os.environ["FUGITIVE_RUN_LOG"], "a") as _log:
        _log.write(f"{time.time():.4f} {1000 * (time.perf_counter() - _start):.2f}\n")
