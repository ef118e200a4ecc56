"""Where a tap's time goes in the assistant (issue 17): not a benchmark of record
(``bench/app_bench.py`` is), a profile to decide what to cut.

``python -m bench.app_profile [kind:seed ...]`` enters games tap by tap as the app
benchmark does (``harness.taps``), and for every entry splits the page clock (the
tap's pointerdown to the first frame after the new heat map is in the page) into:

- tap → send: the browser, from the pointerdown until Streamlit's websocket sends the
  rerun request (the widget's own handling of the tap);
- send → first message: the server until its first answer (the callback, the save,
  the start of the script run);
- first message → heat map on screen: the rest of the run up to the heat map, the
  websocket, the browser applying the deltas and painting;
- tap → the message carrying the probabilities arrives (mark_recv), and from there to
  on screen (mark_seen: the browser applying it and what came before it), and how many
  messages came before it in the tap (before_mark);
- the server's whole run of the page script (a clock around it, ``profile/timed_app.py``);
- what arrives: websocket messages, bytes, deltas (new elements, blocks) per tap;
- the renderer's main thread in the same span (a Chrome trace): busy, scripting,
  style, layout, paint, GC.

``--cpu`` adds the page's JavaScript CPU in those spans by script file and function.
``--bare`` measures a bare Streamlit page of one button the same way (the floor).
``--opt name=value`` passes Streamlit options (``--opt runner.postScriptGC=false``).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from harness import browser, taps  # noqa: E402

#: wraps the page's WebSocket: the page-clock time and size of every frame sent and received
WS_SPY = """(() => {
    const Orig = window.WebSocket;
    window.__fgWs = [];
    class Spy extends Orig {
        constructor(...args) {
            super(...args);
            this.addEventListener('message', (e) => window.__fgWs.push(['r', performance.now(),
                e.data.byteLength ?? e.data.size ?? e.data.length]));
        }
        send(d) { window.__fgWs.push(['s', performance.now(), d.byteLength ?? d.size ?? d.length]); return super.send(d); }
    }
    window.WebSocket = Spy;
    // zero-delay timers (Streamlit sends a widget's trigger from one): when set, when run
    window.__fgTimers = [];
    const later = window.setTimeout;
    window.setTimeout = function (fn, delay, ...rest) {
        if (delay || typeof fn !== 'function') return later(fn, delay, ...rest);
        const at = performance.now();
        return later(function (...a) { window.__fgTimers.push([at, performance.now()]); return fn.apply(this, a); }, delay, ...rest);
    };
})();"""

MARK = """(n) => {
    document.addEventListener('pointerdown', () => performance.mark('fgtap-' + n), {capture: true, once: true});
    document.addEventListener('pointerup', () => { window.__fgUp = performance.now(); }, {capture: true, once: true});
    document.addEventListener('click', () => { window.__fgClick = performance.now(); }, {capture: true, once: true});
}"""

SHOW = int(os.environ.get("APP_PROFILE_SHOW", "0"))  #: print the messages of this entry
TRACE_CATEGORIES = ["devtools.timeline", "blink.user_timing", "v8", "disabled-by-default-devtools.timeline"]


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))]


def _decode(frames: list[bytes], show: bool = False) -> dict[str, int]:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    out = {"messages": len(frames), "bytes": sum(len(f) for f in frames), "elements": 0, "blocks": 0}
    kinds: dict[str, int] = {}
    for f in frames:
        msg = ForwardMsg.FromString(f)
        kind = msg.WhichOneof("type")
        if show:
            d = msg.delta.WhichOneof("type") if kind == "delta" else ""
            e = msg.delta.new_element.WhichOneof("type") if d == "new_element" else ""
            print(f"  {len(f):6d} {kind} {d} {e} {list(msg.metadata.delta_path)}")
        if kind == "delta":
            d = msg.delta.WhichOneof("type")
            if d == "new_element":
                out["elements"] += 1
                e = msg.delta.new_element.WhichOneof("type")
                kinds[e] = kinds.get(e, 0) + 1
            elif d == "add_block":
                out["blocks"] += 1
        elif kind == "ref_hash":
            out["elements"] += 1
            kinds["ref_hash"] = kinds.get("ref_hash", 0) + 1
    out["kinds"] = kinds  # type: ignore[assignment]
    return out


def _trace_split(trace: dict, windows: list[tuple[str, float, float]]) -> dict[str, dict[str, float]]:
    """Per entry (window in trace microseconds), ms of the renderer main thread by kind."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    mains = {(e["pid"], e["tid"]) for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"}
    kinds = {
        "busy": ("RunTask", "ThreadControllerImpl::RunTask"),
        "style": ("UpdateLayoutTree", "RecalculateStyles"),
        "layout": ("Layout",),
        "paint": ("Paint", "PrePaint", "Layerize", "UpdateLayer", "CompositeLayers", "Commit"),
        "gc": ("MinorGC", "MajorGC", "V8.GC_SCAVENGER", "V8.GC_MARK_COMPACTOR"),
        "parse_html": ("ParseHTML", "ParseAuthorStyleSheet"),
    }
    xs = [e for e in events if e.get("ph") == "X" and (e["pid"], e["tid"]) in mains and "dur" in e]
    out: dict[str, dict[str, float]] = {}
    for key, lo, hi in windows:
        row = {}
        for kind, names in kinds.items():
            total = 0.0
            for e in xs:
                if e["name"] in names:
                    a, b = max(lo, e["ts"]), min(hi, e["ts"] + e["dur"])
                    if b > a:
                        total += b - a
            row[kind] = total / 1000
        row["scripting"] = max(0.0, row["busy"] - row["style"] - row["layout"] - row["paint"] - row["parse_html"])
        out[key] = row
    return out


def _marks(trace: dict) -> dict[str, float]:
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    return {e["name"]: e["ts"] for e in events if str(e.get("name", "")).startswith(("fgtap-", "fgseen-"))}


def profile(games: list[tuple[str, int]], bare: int, options: tuple[str, ...], trace: bool, cpu: bool = False) -> None:
    from playwright.sync_api import sync_playwright

    rows: list[dict] = []
    profiles: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "runs.log"
        log.write_text("")
        script = ROOT / "bench" / "profile" / ("bare.py" if bare else "timed_app.py")
        with browser.app_server(Path(tmp) / "p.sqlite3", script=script, env={"FUGITIVE_RUN_LOG": str(log)},
                                options=options) as url, sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=browser.CHROMIUM, args=browser.CHROMIUM_ARGS, headless=True)
            context = chromium.new_context(viewport=browser.PHONE, device_scale_factor=2, is_mobile=True,
                                           has_touch=True)
            context.add_init_script(WS_SPY)
            page = context.new_page()
            page.set_default_timeout(30_000)
            frames: list[bytes] = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(p)
                                                  if isinstance(p, bytes) else None))
            if trace:
                chromium.start_tracing(page=page, categories=TRACE_CATEGORIES)
            cdp = None
            if cpu:
                cdp = context.new_cdp_session(page)
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 200})

            def timed(n: int, click, label: str) -> None:
                browser.wait_idle(page)
                page.evaluate("window.__fgWs = []")
                frames.clear()
                runs_before = len(log.read_text().splitlines())  # (full runs, and the clocks of timed_app.py)
                page.evaluate(taps.ARM, taps.settled_selector(n))
                page.evaluate(MARK, n)
                page.evaluate("window.__fgTimers = []")
                if cdp is not None:
                    cdp.send("Profiler.start")
                click()
                page.wait_for_selector(taps.settled_selector(n), state="attached", timeout=120_000)
                page.wait_for_function("() => window.__fgSeen !== undefined")
                got = page.evaluate("() => [window.__fgTap, window.__fgSeen]")
                up, clicked = page.evaluate("() => [window.__fgUp, window.__fgClick]")
                timer = next((x for x in page.evaluate("window.__fgTimers") if x[0] >= clicked), [float("nan")] * 2)
                page.evaluate(f"performance.mark('fgseen-{n}')")
                if cdp is not None:  # the span of the clock only: its samples are added up
                    profiles.append(cdp.send("Profiler.stop")["profile"])
                browser.wait_idle(page)
                tap, seen = got
                ws = page.evaluate("window.__fgWs")
                sends = [w for w in ws if w[0] == "s" and w[1] >= tap]
                send = sends[0][1] if sends else float("nan")
                recv = [w for w in ws if w[0] == "r" and w[1] >= send]
                lines = [x.split() for x in log.read_text().splitlines()[runs_before:]]
                runs = [float(x[1]) for x in lines if len(x) == 2]
                # the server's clocks (wall time) on the page's clock: the entry's callback
                # and the game page's (fragment) run, from the tap
                origin = page.evaluate("performance.timeOrigin")
                clocks = {x[0]: (1000 * float(x[1]) - origin, 1000 * float(x[2]) - origin) for x in lines if len(x) == 3}
                cb = clocks.get("enter", (float("nan"),) * 2)
                frag = clocks.get("frag", (float("nan"),) * 2)
                solved = clocks.get("solve", (float("nan"),) * 2)
                # the message that carries the probabilities: when it arrived (the server's
                # part ends there; the browser's part, applying it and what came before, after)
                # (the pad's HTML travels as JSON in the component's data: its quotes escaped)
                wanted = (f'data-entries="{n}"'.encode(), f'data-entries=\\"{n}\\"'.encode())
                got_frames = list(frames)
                at = next((k for k, f in enumerate(got_frames) if b"fg-pad" in f and any(m in f for m in wanted)), None)
                inbound = [w for w in ws if w[0] == "r"]
                # the page's spy and Playwright see the same frames in the same order: the
                # last len(got_frames) received are this entry's
                mine = inbound[-len(got_frames):] if got_frames and len(inbound) >= len(got_frames) else []
                mark_recv = (mine[at][1] - tap) if at is not None and mine else float("nan")
                rows.append({
                    "n": n, "what": label, "in_page": seen - tap, "tap_send": send - tap,
                    "down_up": up - tap, "up_click": clicked - up, "click_send": send - clicked,
                    "click_timer": timer[0] - clicked, "timer_wait": timer[1] - timer[0], "timer_send": send - timer[1],
                    "send_first": (recv[0][1] - send) if recv else float("nan"),
                    "first_seen": (seen - recv[0][1]) if recv else float("nan"),
                    "last_recv": (recv[-1][1] - tap) if recv else float("nan"),
                    "mark_recv": mark_recv, "mark_seen": seen - tap - mark_recv,
                    "srv_enter": cb[0] - send, "srv_enter_ms": cb[1] - cb[0],
                    "srv_page": frag[0] - send, "srv_page_ms": frag[1] - frag[0],
                    "srv_solved": solved[1] - tap,  # the probabilities leave the script (from the tap)
                    "before_mark": at if at is not None else float("nan"),
                    "script_ms": sum(runs), "runs": len(runs),
                    "dom": page.evaluate("document.getElementsByTagName('*').length"),
                    "solver_ms": taps.solver_ms(page) if not bare else 0,
                    **_decode(list(frames), show=SHOW and n == SHOW),
                })

            if bare:
                page.goto(url)
                page.wait_for_selector(taps.settled_selector(0))
                for i in range(1, bare + 1):
                    timed(i, lambda: page.get_by_role("button", name="Tap").click(), "tap")
            for kind, seed in games:
                taps.new_game(page, url)
                for i, event in enumerate(taps.game_events(kind, seed), start=1):
                    for tap in taps.taps(page, event):
                        browser.wait_idle(page)
                        if not tap.final:
                            taps.tap_pad(page, tap.target, tap.what)
                            continue
                        timed(i, tap.target.click, tap.kind)
                        rows[-1]["game"] = f"{kind}:{seed}"
            split = {}
            if trace:
                data = json.loads(chromium.stop_tracing())
                marks = _marks(data)
                windows = [(str(k), marks[f"fgtap-{r['n']}"], marks[f"fgseen-{r['n']}"])
                           for k, r in enumerate(rows) if f"fgtap-{r['n']}" in marks and f"fgseen-{r['n']}" in marks]
                split = _trace_split(data, windows)
                if os.environ.get("APP_PROFILE_TRACE"):
                    Path(os.environ["APP_PROFILE_TRACE"]).write_text(json.dumps(data))
            chromium.close()
    for k, r in enumerate(rows):
        r.update({f"tr_{a}": b for a, b in split.get(str(k), {}).items()})
    report(rows)
    if profiles:
        cpu_report(profiles, len(rows))


def cpu_report(profiles: list[dict], taps: int) -> None:
    """The renderer's JavaScript CPU in the clock's spans (CDP Profiler samples), per
    tap: by script file and by function (self time)."""
    by_file: dict[str, float] = {}
    by_fn: dict[str, float] = {}
    for prof in profiles:
        nodes = {x["id"]: x for x in prof["nodes"]}
        for sample, delta in zip(prof["samples"], prof["timeDeltas"]):
            frame = nodes[sample]["callFrame"]
            url = frame.get("url", "").rsplit("/", 1)[-1] or "(" + frame.get("functionName", "") + ")"
            fn = f"{frame.get('functionName') or '(anonymous)'} {url}:{frame.get('lineNumber', 0)}"
            by_file[url] = by_file.get(url, 0.0) + delta / 1000
            by_fn[fn] = by_fn.get(fn, 0.0) + delta / 1000
    print("JS CPU per tap by file (ms):", ", ".join(f"{k} {v / taps:.1f}" for k, v in
                                              sorted(by_file.items(), key=lambda x: -x[1])[:18]))
    print("by function (self, ms per tap):")
    for k, v in sorted(by_fn.items(), key=lambda x: -x[1])[:25]:
        print(f"  {v / taps:6.2f}  {k}")


def report(rows: list[dict]) -> None:
    keys = ["in_page", "tap_send", "down_up", "up_click", "click_send", "click_timer", "timer_wait", "timer_send", "send_first", "srv_enter", "srv_enter_ms", "srv_page", "srv_page_ms", "srv_solved", "first_seen",
            "mark_recv", "mark_seen", "before_mark", "last_recv", "script_ms", "solver_ms", "messages",
            "bytes", "elements", "blocks", "dom"] + sorted(k for k in rows[0] if k.startswith("tr_"))
    print(f"{len(rows)} timed taps")
    print(f"{'':>12} {'p50':>9} {'p95':>9} {'max':>9}")
    for k in keys:
        vals = [float(r[k]) for r in rows if r.get(k) == r.get(k)]
        if vals:
            print(f"{k:>12} {statistics.median(vals):9.1f} {_pct(vals, 0.95):9.1f} {max(vals):9.1f}")
    kinds: dict[str, int] = {}
    for r in rows:
        for a, b in r.get("kinds", {}).items():
            kinds[a] = kinds.get(a, 0) + b
    print("elements per tap by type:", {a: round(b / len(rows), 1) for a, b in sorted(kinds.items(), key=lambda x: -x[1])})
    slow = sorted(rows, key=lambda r: -r["in_page"])[:8]
    print("slowest:", [(r.get("game", ""), r["n"], r["what"], round(r["in_page"]), round(r["script_ms"]),
                        r["solver_ms"]) for r in slow])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="*", default=["random:0"])
    ap.add_argument("--bare", type=int, default=0, help="time N taps of a bare one-button page instead")
    ap.add_argument("--opt", action="append", default=[], help="a Streamlit option name=value")
    ap.add_argument("--trace", action="store_true", help="also split the renderer's main thread (Chrome trace)")
    ap.add_argument("--cpu", action="store_true", help="also profile the page's JavaScript (CDP Profiler) in each span")
    a = ap.parse_args(argv)
    why = browser.missing()
    if why:
        print(why)
        return
    options = tuple(x for o in a.opt for x in (f"--{o.split('=', 1)[0]}", o.split("=", 1)[1]))
    games = [] if a.bare else [(g.split(":")[0], int(g.split(":")[1])) for g in a.games]
    start = time.perf_counter()
    profile(games, a.bare, options, a.trace, a.cpu)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
