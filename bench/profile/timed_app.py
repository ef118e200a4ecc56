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

from app import assistant, services  # noqa: E402
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

if os.environ.get("FUGITIVE_TRACE_MSGS"):  # every message's way out: queued (script thread), sent (event loop)
    from streamlit.runtime import app_session as _as, runtime as _rt

    def _trace(name, fn, kind):
        if getattr(fn, "_fg_traced", False):
            return fn

        def wrapper(self, *args):
            at = time.time()
            what = kind(*args)
            with open(os.environ["FUGITIVE_TRACE_MSGS"], "a") as log:
                log.write(f"msg {name} {what} {at:.5f}\n")
            return fn(self, *args)

        wrapper._fg_traced = True
        return wrapper

    _as.AppSession._enqueue_forward_msg = _trace("enq", _as.AppSession._enqueue_forward_msg,
                                                 lambda m: m.WhichOneof("type"))
    _as.AppSession.handle_backmsg = _trace("back", _as.AppSession.handle_backmsg, lambda m: m.WhichOneof("type"))
    _rt.Runtime._send_message = _trace("send", _rt.Runtime._send_message, lambda i, m: m.WhichOneof("type"))

assistant._game_body = _clocked("frag", assistant._game_body)
assistant._on_tap = _clocked("enter", assistant._on_tap)  # the tap's callback: the entry applied and saved
services.solve = _clocked("solve", services.solve)  # the probabilities are sent right after it

_start = time.perf_counter()
try:
    run()
finally:
    with open(os.environ["FUGITIVE_RUN_LOG"], "a") as _log:
        _log.write(f"{time.time():.4f} {1000 * (time.perf_counter() - _start):.2f}\n")
