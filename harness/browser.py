"""Running the app for real: a Streamlit server on a free local port and a headless
Chromium (Playwright driving Debian's chromium-headless-shell or chromium, see
:data:`CHROMIUM`; browser downloads are impossible here, so ``playwright install`` is
never used). Shared by the browser tests and
``bench/app_bench.py``.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: the browser the tests drive: Debian's old headless shell where it is installed (the
#: same Blink, layout and styles as chromium without the full browser around it; the
#: browser tests cost about a fifth less CPU on it: docs/benchmarks.md), else chromium
#: itself; FUGITIVE_CHROMIUM names another
CHROMIUM = os.environ.get("FUGITIVE_CHROMIUM") or next(
    (p for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if os.path.exists(p)), "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
#: where the browser tests save their screenshots: the README's own folder only when
#: asked (FUGITIVE_SCREENSHOTS=1), so an ordinary test run leaves the work tree as it was
SHOTS = (ROOT / "docs" / "screenshots" if os.environ.get("FUGITIVE_SCREENSHOTS") == "1"
         else pathlib.Path(tempfile.gettempdir()) / "fugitive-screenshots")


def missing() -> str | None:
    """Why the browser tests cannot run here (None when they can)."""
    if not pathlib.Path(CHROMIUM).exists():
        return (f"BROWSER TESTS SKIPPED: no Chromium at {CHROMIUM} "
                "(install it with `apt-get install -y chromium`)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "BROWSER TESTS SKIPPED: the Python package playwright is missing (pip install -e '.[browser]')"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def app_server(db_path: str | os.PathLike[str], timeout: float = 60.0, script: str | os.PathLike[str] | None = None,
               env: dict[str, str] | None = None, options: tuple[str, ...] = ()):
    """Start ``streamlit run streamlit_app.py`` (or ``script``) on 127.0.0.1; yield its
    URL; stop it. ``env``: more environment variables; ``options``: more command-line
    options (``--runner.postScriptGC``, ``false``, ...), for ``bench/app_profile.py``."""
    port = free_port()
    streamlit = pathlib.Path(sys.executable).with_name("streamlit")
    cmd = [str(streamlit) if streamlit.exists() else shutil.which("streamlit") or "streamlit",
           "run", str(script or ROOT / "streamlit_app.py"),
           "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
           "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none", *options]
    env = dict(os.environ, FUGITIVE_DB=str(db_path), **(env or {}))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None:
                out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
                raise RuntimeError(f"streamlit exited with {proc.returncode}:\n{out}")
            if time.monotonic() > deadline:
                raise RuntimeError("streamlit did not start in time")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def as_owner(page, url: str, key: str) -> None:
    """``page``'s browser holds owner key ``key`` in its cookie, as the browser that
    made a game does (no URL says who a browser is)."""
    page.context.add_cookies([{"name": "fugitive_owner", "value": key, "url": url}])


_driver: list = []  #: this process's Playwright driver and Chromium, once started


def chromium():
    """This process's headless Chromium, started at its first use and kept until
    :func:`stop` (or the process's end). Each phone is a browser context of its own
    (its own cookies, storage and sessions), so one Chromium serves every test of a
    run: a launch and a close cost a second or two each under load."""
    if _driver and _driver[1].is_connected():
        return _driver[1]
    stop()
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        _driver[:] = [pw, pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)]
    except BaseException:
        pw.stop()
        raise
    if not getattr(chromium, "_at_exit", False):
        atexit.register(stop)
        chromium._at_exit = True  # type: ignore[attr-defined]
    return _driver[1]


def stop() -> None:
    """Close this process's Chromium and its Playwright driver (when started)."""
    if not _driver:
        return
    pw, browser = _driver
    _driver.clear()
    _SPARE.clear()
    try:
        browser.close()
    except PlaywrightError:  # already gone
        pass
    finally:
        pw.stop()


@contextlib.contextmanager
def phone_page(**options):
    """A Playwright page in headless Chromium at a 390x844 phone viewport (a browser
    context of its own, closed at the end). ``options``: more of Playwright's context
    options (``color_scheme="dark"``, ...)."""
    with phone_pages(1, **options) as (page,):
        yield page


@contextlib.contextmanager
def phone_pages(count: int, *, unused: bool = False, **options):
    """``count`` Playwright pages at a phone viewport, each in its own browser context
    (separate cookies, storage and sessions: separate phones), in this process's
    Chromium.

    A phone's context serves a later phone once every trace of its person is gone
    (:func:`_give_back`: its pages closed, its cookies, permissions and the storage of
    every site it opened cleared). What it keeps is Chromium's cache of the app's
    scripts, which every phone loads alike: a phone then costs about 1.15 s of CPU
    instead of 1.5 s, and opens in 0.9 s instead of 1.5 s (docs/benchmarks.md). What
    cannot be taken back from a context (an init script, a binding, headers, a place,
    being offline) marks it as used for good, and it is closed instead: set such
    things on the page where the test can (``page.add_init_script``). ``unused``: every
    phone in a context never used before, its cache empty (Chromium asks again for a
    page it holds, with two more headers)."""
    browser = chromium()
    key = repr(sorted(options.items()))
    taken: list = []
    try:
        pages = []
        for _ in range(count):
            context = (None if unused else _spare_context(key)) or _new_context(browser, options)
            taken.append(context)
            page = context.new_page()
            page.set_default_timeout(30_000)
            pages.append(page)
        yield pages
    finally:
        for context in taken:
            _give_back(context, key)


#: contexts cleared of their person, by their options, for the next phone of this process
_SPARE: dict[str, list] = {}
#: a context's methods whose effect cannot be cleared: one call and it is never used again
_FOR_GOOD = ("add_init_script", "expose_binding", "expose_function", "set_extra_http_headers",
             "set_geolocation", "set_offline", "route", "route_from_har", "route_web_socket")


def _new_context(browser, options: dict):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **options)
    context._fg_origins = set()  # the sites its pages opened (their storage is cleared)
    context._fg_for_good = False

    def seen(frame) -> None:
        origin = re.match(r"^https?://[^/]+", frame.url)
        if origin:
            context._fg_origins.add(origin.group(0))

    context.on("page", lambda page: page.on("framenavigated", seen))
    for name in _FOR_GOOD:
        method = getattr(context, name)

        def marked(*args, _method=method, **kwargs):
            context._fg_for_good = True
            return _method(*args, **kwargs)

        setattr(context, name, marked)
    return context


def _spare_context(key: str):
    spare = _SPARE.get(key)
    while spare:
        context = spare.pop()
        if context.browser is not None and context.browser.is_connected():
            return context
    return None


def _give_back(context, key: str) -> None:
    """Clear ``context`` of its person and keep it for the next phone, or close it."""
    try:
        reusable = not context._fg_for_good and len(_SPARE.get(key, ())) < 8
        if reusable:
            # the storage of every site it opened (local storage, IndexedDB, service
            # workers, cache storage...), through one of its pages (a new one where the
            # test closed them all); then its cookies and permissions; session storage
            # goes with the pages
            cdp = context.new_cdp_session(context.pages[0] if context.pages else context.new_page())
            for origin in sorted(context._fg_origins):
                cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            cdp.detach()
            context._fg_origins.clear()
            context.clear_cookies()
            context.clear_permissions()
        for page in list(context.pages):
            page.close()
        if reusable and not context.pages:
            _SPARE.setdefault(key, []).append(context)
            return
    except PlaywrightError:  # a page that would not close, or Chromium gone (the next use starts another)
        pass
    with contextlib.suppress(PlaywrightError):
        context.close()


#: The page's own account of when it was last busy (``window.__fgIdle.last``, its clock):
#: a Streamlit rerun on screen (the running icon, a stale element, a spinner), or a tap
#: or key, whose rerun may show a moment later. Kept by a MutationObserver and input
#: listeners from the first wait on each document, so that a second wait with nothing
#: in between returns at once instead of waiting out another quiet period.
_TRACKER = """
    const busy = () => !!(document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')
        || document.querySelector('[data-stale="true"]')
        || document.querySelector('[data-testid="stSpinner"]'));
    let w = window.__fgIdle;
    if (w === undefined) {
        w = window.__fgIdle = {last: performance.now(), busy: busy()};
        new MutationObserver(() => {
            const b = busy();
            if (b || w.busy) w.last = performance.now();  // busy now, or just stopped
            w.busy = b;
        }).observe(document, {subtree: true, childList: true, attributes: true,
                              attributeFilter: ['data-stale', 'data-testid']});
        for (const type of ['pointerdown', 'click', 'keydown', 'input', 'change']) {
            document.addEventListener(type, () => { w.last = performance.now(); }, {capture: true});
        }
    }
    const now = performance.now();
    if (busy()) { w.last = now; w.busy = true; } else if (w.busy) { w.last = now; w.busy = false; }
"""

IDLE = "(quiet) => {" + _TRACKER + "    return !w.busy && now - w.last >= quiet;\n}"

#: A thumb on its way to the control ``sel``: from the first look at an idle page (the
#: moment a person sees it ready) for ``travel`` ms, with no rerun, tap or key meanwhile
#: and ``quiet`` ms since the last; where the control stood then and where it stands
#: now ([x, y, width, height], null when not on the page). Activity starts it again.
THUMB = "([sel, quiet, travel]) => {" + _TRACKER + """
    const box = () => { const e = document.querySelector(sel); if (!e) return null;
                        const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
    if (w.busy) { window.__fgThumb = undefined; return false; }
    const t = window.__fgThumb;
    if (t === undefined || t.sel !== sel || w.last > t.at) { window.__fgThumb = {sel, at: now, box: box()}; return false; }
    if (now - w.last < quiet || now - t.at < travel) return false;
    window.__fgThumb = undefined;
    return [t.box, box()];
}"""


def wait_idle(page, timeout: float = 60_000, quiet_ms: int = 150) -> None:
    """Wait until Streamlit's rerun is over: no running indicator, no stale element,
    no spinner, and none of them nor a tap or key for ``quiet_ms`` (a tap's rerun may
    start a moment late). The quiet is counted from the page's last activity (``IDLE``),
    not from this call: a page idle since the last wait is not waited for again."""
    page.wait_for_function(IDLE, arg=quiet_ms, timeout=timeout, polling=25)


Box = tuple[float, float, float, float]


def thumb_travel(page, selector: str, travel_ms: int = 250, quiet_ms: int = 150,
                 timeout: float = 60_000) -> tuple[Box | None, Box | None]:
    """Wait as a person's thumb does before a tap on ``selector``: from the moment the
    page is first seen idle, ``travel_ms`` of travel (and at least ``quiet_ms`` since
    its last activity, as ``wait_idle``); where the control stood when the thumb set
    off and where it stands when the thumb lands. A control that moved meanwhile (a
    late element pushing it) is one a person would have missed."""
    start, end = page.wait_for_function(THUMB, arg=[selector, quiet_ms, travel_ms], timeout=timeout,
                                        polling=25).json_value()
    return (tuple(start) if start else None), (tuple(end) if end else None)  # type: ignore[return-value]


try:  # the browser tests' package: only they make a Blip
    from playwright.sync_api import Error as PlaywrightError
except ImportError:  # pragma: no cover - the browser tests are skipped without it
    PlaywrightError = OSError  # type: ignore[misc,assignment]


class Blip:
    """A network blip on one page's websocket: ``start(seconds)`` drops everything the
    page and the server send each other and closes the connection; the page's tries
    to reconnect fail until the time is up, then it reconnects as a phone does when
    its network comes back. Install before the page opens the app."""

    def __init__(self, page) -> None:
        self.until = 0.0
        self._open: list[object] = []
        page.route_web_socket(re.compile(r".*/_stcore/stream.*"), self._route)

    @property
    def down(self) -> bool:
        return time.monotonic() < self.until

    def _route(self, ws) -> None:
        if self.down:
            ws.close()
            return
        server = ws.connect_to_server()
        self._open.append((ws, server))
        server.on_message(lambda message: None if self.down else ws.send(message))
        ws.on_message(lambda message: None if self.down else server.send(message))

    def start(self, seconds: float) -> None:
        """From now on for ``seconds``: nothing goes through, and the connection drops."""
        self.until = time.monotonic() + seconds

    def cut(self) -> None:
        """Close the connections (a moment after :meth:`start`: what was sent is lost)."""
        for ws, server in self._open:
            try:
                server.close()
                ws.close()
            except PlaywrightError:  # already closed by the page
                pass
        self._open.clear()


class HeldFrames:
    """A gate on what the server sends one page over Streamlit's websocket: while
    ``held`` the frames wait (the page shows what it showed, its timers and taps
    still go out); ``release()`` delivers them in order. With it a test makes a tap
    on a page that another phone has moved on, as slow networks do, without racing
    the page's own timed rerun. Install before the page opens the app."""

    def __init__(self, page) -> None:
        self.held = False
        self._queue: list[tuple[object, str | bytes]] = []
        page.route_web_socket(re.compile(r".*/_stcore/stream.*"), self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            if self.held or self._queue:  # (in order: behind what waits)
                self._queue.append((ws, message))
            else:
                ws.send(message)

        server.on_message(down)
        ws.on_message(lambda message: server.send(message))

    def hold(self) -> None:
        self.held = True

    def release(self) -> None:
        self.held = False
        while self._queue:
            ws, message = self._queue.pop(0)
            ws.send(message)
