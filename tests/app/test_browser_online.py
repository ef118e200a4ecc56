"""Play a friend on two phones (issue 18), in a real headless Chromium at 390x844.

Each player is a browser context of its own (its own cookies: its own phone). A
context with a wrong, truncated or other match's secret sees nothing but "this match
is private", in its HTML and its websocket frames; the lists are the browser's, kept
in a cookie with a recovery link; the link button shares or copies. The helpers here
(reading frames, tapping, positions on the first screen, the referee's view of the
stored match) serve the adversarial suite too: the whole match played by taps, with
a thief, a watcher and a stranger, is in test_browser_seats.py (issue 30).
"""
from __future__ import annotations

import re
import time
import secrets
from urllib.parse import parse_qs, urlsplit

import pytest

from engine import new_game
from harness import browser
from store import GameStore
from store.access import Role, new_owner_key

pytestmark = pytest.mark.browser

SCREEN = browser.PHONE["height"]
#: how long the other side's move may take to show (the issue: about 2 s; the page
#: watches the stored version every second, then draws the page again): the median
#: within 2 s, and no move later than 6 s (a machine loaded by parallel test runs
#: stretches single redraws past 3 s; a page that stopped watching takes for ever)
SHOWN_MEDIAN = 2.0
SHOWN_WITHIN = 6.0

#: markup that exists only on the Fugitive's own page: a face-down hideout with its
#: number, a sprint card's number under a face-down hideout, his hand with footprints
FUGITIVE_ONLY = (
    re.compile(rb'fg-card down">\(\d+\)'),
    re.compile(rb'class="fg-card(?: fg-new)?">\d+<span class="s">'),
    re.compile(rb'<span class="fg-pos">\d+</span></div><div class="fg-stack"[^>]*><span class="fg-mini up">'),
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    why = browser.missing()
    if why:
        pytest.skip(why)
    db = tmp_path_factory.mktemp("browser-online") / "games.sqlite3"
    GameStore(db)
    with browser.app_server(db) as url:
        yield url, db


# --------------------------------------------------------------------------- helpers
def listen(page) -> list[bytes]:
    """Every websocket frame the server sends to this page, as bytes (Streamlit's
    protobuf messages carry the HTML and the widgets' options as UTF-8 text)."""
    frames: list[bytes] = []

    def on_frame(payload):
        if isinstance(payload, dict):
            payload = payload.get("payload", b"")
        frames.append(payload if isinstance(payload, bytes) else str(payload).encode())

    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    return frames


def tap(page, label: str, text: str) -> None:
    browser.wait_idle(page)
    page.locator(f'[aria-label="{label}"] button').filter(has_text=re.compile(f"^{re.escape(text)}$")).click()


def press(page, selector: str) -> None:
    browser.wait_idle(page)
    page.locator(selector).first.click()


def on_first_screen(page, *selectors: str) -> dict[str, int]:
    browser.wait_idle(page)
    page.evaluate("() => { for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0;"
                  " window.scrollTo(0, 0); }")
    out = {}
    for sel in selectors:
        loc = page.locator(sel).first
        loc.wait_for()
        box = loc.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SCREEN, (sel, box)
        out[sel] = round(box["y"])
    return out


TURN = ('[data-testid="fg-status"]', '[data-testid="fg-last"]', '[data-testid="fg-row"]', '[data-testid="fg-hand"]')


def tops(page) -> tuple[int, ...]:
    """Where the status, the box of the last move, the row and the hand are (their
    tops, the page at the top): the same whether it is this player's turn or not."""
    return tuple(on_first_screen(page, *TURN).values())


def version_of(page) -> int:
    return int(page.locator('[data-testid="fg-status"]').first.get_attribute("data-version"))


def wait_version(page, version: int, timeout: float = 30_000) -> None:
    """Wait until the page shows the match at ``version`` or later; if it never does,
    fail with what the page shows instead (its status and version, an error or an
    exception box, its last words), so that a failure in CI says where the page stood."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            "v => { const s = document.querySelector('[data-testid=\"fg-status\"]');"
            " return s && Number(s.dataset.version) >= v; }", arg=version, timeout=timeout, polling=50)
    except PlaywrightTimeout:
        seen = page.evaluate("""() => {
            const s = document.querySelector('[data-testid="fg-status"]');
            const boxes = [...document.querySelectorAll('[data-testid="stException"], [data-testid="stAlert"]')];
            return {url: location.href, status: s && s.innerText, version: s && s.dataset.version,
                    running: !!document.querySelector('[data-testid="stStatusWidget"]'),
                    boxes: boxes.map(b => b.innerText.slice(0, 300)),
                    text: document.body.innerText.slice(0, 600)};
        }""")
        raise AssertionError(f"the page never showed version {version} in {timeout / 1000:.0f} s: {seen}") from None


def status_text(page) -> str:
    return page.locator('[data-testid="fg-status"]').first.inner_text()


def link_of(page, role: str) -> tuple[str, str]:
    """(game id, secret) of the link shown on the page for ``role``."""
    url = page.locator(f'[data-testid="fg-link-{role}"]').first.get_attribute("data-url")
    q = parse_qs(urlsplit(url).query)
    return q["game"][0], q["s"][0]


def marshal_hand_marks(store: GameStore, gid: str) -> set[bytes]:
    """How the Marshal's own cards are marked on her page (◆ in the numbers to guess):
    never on another page before the end."""
    stored = store.open(gid)
    hand = set()
    for e in stored.record.events:
        if e.type == "marshal_draw":
            hand.add(e.card)
    return {f"{c}◆".encode() for c in hand}


def fugitive_hand_line(store: GameStore, gid: str) -> bytes | None:
    """The Fugitive's hand as his page draws it (his cards in order, with footprints)."""
    from app.match_play import _hand_html

    stored = store.open(gid)
    from app import match_logic as ml
    from app.match_meta import MatchMeta

    meta = MatchMeta.read(stored.metadata)
    state = ml.rebuild(meta.seed, stored.record, meta.ended_turn)
    if not state.fugitive_hand:
        return None
    body = _hand_html("x", sorted(state.fugitive_hand), True)
    return body[body.index("</span>") + 7:].encode()


def assert_no_leak(what: str, blobs: list[bytes], forbidden_res=(), forbidden=()) -> None:
    for i, blob in enumerate(blobs):
        for rx in forbidden_res:
            assert not rx.search(blob), f"{what}: item {i} holds {rx.pattern!r}"
        for s in forbidden:
            assert s not in blob, f"{what}: item {i} holds {s!r}"


def reload_keeps_hand(page) -> None:
    """Reload the page mid-turn: the hand it shows (the card just drawn) is the same."""
    hand = page.locator('[data-testid="fg-hand"]')
    before = hand.first.inner_text()
    page.reload()
    page.wait_for_selector('[data-testid="fg-hand"]')
    browser.wait_idle(page)
    assert hand.first.inner_text() == before


def state_of(store: GameStore, gid: str):
    from app import match_logic as ml
    from app.match_meta import MatchMeta

    stored = store.open(gid)
    meta = MatchMeta.read(stored.metadata)
    return ml.rebuild(meta.seed, stored.record, meta.ended_turn), stored


def test_a_wrong_truncated_or_other_matchs_secret_sees_nothing(server):
    url, db = server
    store = GameStore(db)
    from store.access import new_owner_key

    state = new_game(7)
    meta = {"seed": 7, "mode": "online", "claim_after": 86400}
    invite = store.create_match(state.record(), side="marshal", owner_key=new_owner_key(), metadata=meta)
    other = store.create_match(new_game(8).record(), side="fugitive", owner_key=new_owner_key(),
                               metadata=dict(meta, seed=8))
    gid = invite.game.id
    good = invite.secret("fugitive")
    tries = {
        "none": "",
        "wrong": secrets.token_urlsafe(24),
        "truncated": good[:-3],
        "other match's": other.secret("fugitive"),
        "not a secret": "<script>alert(1)</script>",
    }
    with browser.phone_pages(1) as (page,):
        frames = listen(page)
        for name, secret in tries.items():
            page.goto(f"{url}/?page=match&game={gid}" + (f"&s={secret}" if secret else ""))
            page.wait_for_selector('[data-testid="fg-private"]')
            browser.wait_idle(page)
            assert "This match is private" in page.inner_text("body"), name
            html_now = page.content()
            for marker in ('data-testid="fg-row"', 'data-testid="fg-hand"', 'data-testid="fg-status"',
                           "Your hand", "Hideout to place"):
                assert marker not in html_now, (name, marker)
        blob = b"".join(frames)
        for marker in (b'data-testid="fg-row"', b'data-testid="fg-hand"', b'class="fg-card', b"Hideout to place"):
            assert marker not in blob, marker
        # the right link opens the Fugitive's view (and an unknown id says so, no crash)
        page.goto(f"{url}/?page=match&game={gid}&s={good}")
        page.wait_for_selector('[aria-label="Hideout to place"]')
        page.goto(f"{url}/?page=match&game=nosuchgame123&s={good}")
        page.wait_for_selector("text=No saved game with id")


def test_the_lists_are_this_browsers_kept_in_a_cookie_and_carried_by_a_recovery_code(server):
    url, db = server
    with browser.phone_pages(2) as (mine, other):
        mine.goto(url + "/?page=match")
        tap(mine, "Players", "Play a friend (two phones)")
        tap(mine, "Your side", "Fugitive")
        press(mine, 'button:has-text("Make the match and the links")')
        mine.wait_for_selector('[data-testid="fg-link-marshal"]')
        browser.wait_idle(mine)
        gid = parse_qs(urlsplit(mine.url).query)["game"][0]
        cookie = {c["name"]: c["value"] for c in mine.context.cookies()}.get("fugitive_owner")
        assert cookie and len(cookie) >= 22
        # a new session of this browser (the URL without the match): its list has it
        mine.goto(url + "/?page=match")
        mine.wait_for_selector('button:has-text("You: Fugitive vs a friend (Marshal)")')
        assert mine.locator('button:has-text("Continue: You: Fugitive vs a friend")').count() == 1
        # another browser has nothing of it, and a link with her key in it changes nothing
        other.goto(f"{url}/?page=match&owner={cookie}")
        other.wait_for_selector('button:has-text("Make the match and the links"), '
                                'button:has-text("Start the match")')
        browser.wait_idle(other)
        assert other.locator('button:has-text("vs a friend")').count() == 0
        assert "owner=" not in other.url
        assert {c["name"]: c["value"] for c in other.context.cookies()}.get("fugitive_owner") != cookie
        # her recovery code, made on her phone and typed on the other: the list comes over
        code = make_recovery_code(mine)
        bring_games(other, url, code)
        other.wait_for_selector('button:has-text("You: Fugitive vs a friend (Marshal)")')
        press(other, 'button:has-text("You: Fugitive vs a friend (Marshal)")')
        other.wait_for_selector('[aria-label="Hideout to place"]')  # his seat, from his list
        assert gid in other.url


def make_recovery_code(page) -> str:
    """This browser's recovery code, made on its list page (the match page's setup)."""
    browser.wait_idle(page)
    page.locator('summary:has-text("Your games on another phone")').click()
    press(page, 'button:has-text("recovery code")')
    page.wait_for_selector('[data-testid="fg-recovery-code"]')
    return page.locator('[data-testid="fg-recovery-code"]').inner_text().strip()


def bring_games(page, url: str, code: str) -> None:
    """Type a recovery code on the match page's list and bring its games here."""
    page.goto(url + "/?page=match")
    page.wait_for_selector('summary:has-text("Your games on another phone")')
    browser.wait_idle(page)
    page.locator('summary:has-text("Your games on another phone")').click()
    page.get_by_label("Recovery code").fill(code)
    page.get_by_label("Recovery code").press("Enter")
    browser.wait_idle(page)
    press(page, 'button:has-text("Bring the games of this code here")')
    browser.wait_idle(page)


def test_the_link_button_shares_the_link_or_copies_it(server):
    """The button under a link hands that link to the phone's share sheet where the
    browser has one, and copies it to the clipboard where it has not."""
    url, db = server
    with browser.phone_pages(1) as (page,):
        page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        page.goto(url + "/?page=match")
        tap(page, "Players", "Play a friend (two phones)")
        press(page, 'button:has-text("Make the match and the links")')
        page.wait_for_selector('[data-testid="fg-link-fugitive"]')
        browser.wait_idle(page)
        link = page.locator('[data-testid="fg-link-fugitive"]').first.get_attribute("data-url")
        button = page.locator('button.fg-copy[data-url]').first
        assert button.get_attribute("data-url") == link
        # a phone: the share sheet gets the link
        page.evaluate("() => { window.__shared = []; navigator.share = async (d) => { window.__shared.push(d.url); }; }")
        button.click()
        page.wait_for_function("() => window.__shared.length > 0")
        assert page.evaluate("() => window.__shared") == [link]
        # no share sheet: the clipboard gets it, and the button says so
        page.evaluate("() => { delete Navigator.prototype.share; navigator.share = undefined; }")
        button.click()
        page.wait_for_function("b => b.textContent === '✓'", arg=button.element_handle())
        assert page.evaluate("() => navigator.clipboard.readText()") == link


def test_a_huge_id_is_refused_at_once_and_a_reload_is_a_page_again(server):
    """Attack 5 in a browser: the id is refused by its length before any work, and
    leaves the URL; a page carrying it again would meet the HTTP server's limit on a
    request's size ("Invalid HTTP request received.", a blank page), so a reload must
    not send it."""
    url, db = server
    # (a browser that never opened the app: one that holds its page asks whether it
    # changed, two headers more, and meets the limit with the first request)
    with browser.phone_pages(1, unused=True) as (page,):
        t0 = time.monotonic()
        page.goto(f"{url}/?page=learning&game={'x' * 100_000}")
        page.wait_for_selector("text=This link's game id is not valid (100,000 characters")
        assert time.monotonic() - t0 < 20
        page.wait_for_function("() => !location.search.includes('xxxx')")
        page.reload()
        page.wait_for_selector('text=Replay a saved game')
        assert "Invalid HTTP request" not in page.inner_text("body")


def test_a_tap_lost_in_a_network_blip_is_said_and_a_tap_again_saves_it(server):
    """A Place tapped as the network drops (the tap never reaches the server, the
    connection comes back 5 s later): the page says so in a note that moves nothing,
    nothing was saved, and the tap again saves the move once."""
    url, db = server
    store = GameStore(db)
    invite = store.create_match(new_game(5).record(), side="marshal", owner_key=new_owner_key(),
                                metadata={"seed": 5, "mode": "online", "claim_after": 86400})
    gid = invite.game.id
    with browser.phone_pages(1) as (fp,):
        blip = browser.Blip(fp)
        fp.goto(f"{url}/?page=match&game={gid}&s={invite.secret(Role.FUGITIVE)}")
        fp.wait_for_selector('[aria-label="Hideout to place"]')
        first = fp.locator('[aria-label="Hideout to place"] button').first.inner_text()
        tap(fp, "Hideout to place", first)
        browser.wait_idle(fp)
        place = fp.locator('button:has-text("Place")').first
        box = place.bounding_box()
        version, events = store.version(gid), len(store.open(gid).record.events)
        blip.start(5)
        place.click()
        blip.cut()
        fp.wait_for_selector('[data-testid="fg-lost-tap"]', timeout=30_000)
        assert "did not reach the server" in fp.inner_text('[data-testid="fg-lost-tap"]')
        assert (store.version(gid), len(store.open(gid).record.events)) == (version, events)
        assert fp.locator('button:has-text("Place")').first.bounding_box() == box  # nothing moved
        time.sleep(max(0.0, blip.until - time.monotonic()) + 2)  # the network back
        # the page reconnects in its own time (seconds, under load): in the same session
        # (her hideout still picked) or a new one (picked again, as she would). Until the
        # save, a tap of Place that cannot be made (not enabled: the reconnect's new
        # session arrived between the look and the tap) is no tap; nothing saved yet
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        browser.wait_idle(fp)
        assert store.version(gid) == version, "the lost tap was saved when the page came back"
        deadline, clicks = time.monotonic() + 30, 0
        while store.version(gid) == version:
            assert time.monotonic() < deadline, "the tap again never saved the move"
            browser.wait_idle(fp)
            if not fp.locator('button:has-text("Place")').first.is_enabled():
                tap(fp, "Hideout to place", first)
                browser.wait_idle(fp)
            try:
                fp.locator('button:has-text("Place")').first.click(timeout=2_000)
            except PlaywrightTimeout:
                continue
            clicks += 1
            wait_version(fp, version + 1)
        assert clicks >= 1  # the move was saved by the tap again, not by the lost one
        assert len(store.open(gid).record.events) == events + 1
        assert fp.locator('[data-testid="fg-lost-tap"]').count() == 0


def test_both_phones_count_the_idle_time_alike_whatever_their_clocks_say(server):
    """The time left before a claim, on two phones at the same moment, one of whose
    clocks runs 90 s ahead: the same words (the server says how long is left; each
    phone counts down from that by its own monotonic clock)."""
    url, db = server
    store = GameStore(db)
    maker = new_owner_key()
    invite = store.create_match(new_game(5).record(), side="marshal", owner_key=maker,
                                metadata={"seed": 5, "mode": "online", "claim_after": 86400})
    gid = invite.game.id
    with browser.phone_pages(2) as (mp, fp):
        fp.context.add_init_script("(() => { const real = Date.now; Date.now = () => real() + 90000;"
                                   " const R = Date; globalThis.Date = class extends R {"
                                   " constructor(...a) { super(...(a.length ? a : [real() + 90000])); }"
                                   " static now() { return real() + 90000; } }; })();")
        fp.goto(f"{url}/?page=match&game={gid}&s={invite.secret(Role.FUGITIVE)}")
        mp.context.add_cookies([{"name": "fugitive_owner", "value": maker, "url": url}])
        mp.goto(f"{url}/?page=match&game={gid}")
        for p in (mp, fp):
            p.wait_for_selector('[data-testid="fg-idle"] .fg-left')
        time.sleep(6.5)  # the phones' own counting has run (it ticks each second; it once ticked each 5 s)
        left = [p.inner_text('[data-testid="fg-idle"] .fg-left') for p in (mp, fp)]
        assert left[0] == left[1], left
        assert fp.evaluate("() => Date.now() - performance.timeOrigin - performance.now()") > 80_000
