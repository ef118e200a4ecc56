"""Play a friend on two phones (issue 18), in a real headless Chromium at 390x844.

Each player is a browser context of its own (its own cookies: its own phone). The
Marshal invites from the match page, the Fugitive opens the link she was given, and
they play a whole match to its end by tapping, while the test reads, in every
context, the page's HTML and every websocket frame the server sent it: the other
side's hidden cards never arrive before the end. A third context with a wrong,
truncated or other match's secret sees nothing but "this match is private".
The test is the referee: it reads the true state of the match from the database.
"""
from __future__ import annotations

import re
import secrets
import time
from urllib.parse import parse_qs, urlsplit

import pytest

from engine import new_game
from engine.state import Phase
from harness import browser
from notepad.store import GameStore

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
    page.wait_for_function(
        "v => { const s = document.querySelector('[data-testid=\"fg-status\"]');"
        " return s && Number(s.dataset.version) >= v; }", arg=version, timeout=timeout, polling=50)


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

    state = ml.rebuild(stored.metadata["seed"], stored.record.ruleset, stored.record,
                       stored.metadata.get(ml.ENDED_TURN))
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

    stored = store.open(gid)
    return ml.rebuild(stored.metadata["seed"], stored.record.ruleset, stored.record,
                      stored.metadata.get(ml.ENDED_TURN)), stored


# --------------------------------------------------------------------------- the whole match
@pytest.mark.slow
def test_two_phones_play_a_whole_match_by_links_and_nothing_hidden_leaks(server):
    url, db = server
    store = GameStore(db)
    latencies: list[float] = []
    with browser.phone_pages(3) as (mp, fp, wp):
        mframes, fframes, wframes = listen(mp), listen(fp), listen(wp)
        # the Marshal invites: side and rules, one tap; her page waits with the link
        mp.goto(url + "/?page=match")
        tap(mp, "Players", "Play a friend (two phones)")
        on_first_screen(mp, 'button:has-text("Make the match and the links")')
        press(mp, 'button:has-text("Make the match and the links")')
        mp.wait_for_selector('[data-testid="fg-link-fugitive"]')
        assert "Waiting for the Fugitive" in status_text(mp)
        on_first_screen(mp, '[data-testid="fg-status"]', '[data-testid="fg-link-fugitive"]')
        gid, fsecret = link_of(mp, "fugitive")
        assert mp.locator('[data-testid="fg-qr"] img').count() == 1
        _, wsecret = link_of(mp, "watcher")
        msecret = parse_qs(urlsplit(mp.url).query)["s"][0]
        assert len({fsecret, wsecret, msecret}) == 3 and gid not in fsecret
        # while waiting, nothing to tap
        for control in ('[aria-label="Draw from"]', '[aria-label="Numbers to guess"]', 'button:has-text("Guess")'):
            assert mp.locator(control).count() == 0
        # the Fugitive opens his link on his phone; a watcher opens hers
        fp.goto(f"{url}/?page=match&game={gid}&s={fsecret}")
        fp.wait_for_selector('[aria-label="Hideout to place"]')
        assert "Your turn · Fugitive" in status_text(fp)
        wp.goto(f"{url}/?page=match&game={gid}&s={wsecret}")
        wp.wait_for_selector('[data-testid="fg-status"]')
        assert "Watching" in status_text(wp)
        positions = on_first_screen(fp, '[data-testid="fg-status"]', '[data-testid="fg-last"]',
                                    '[data-testid="fg-row"]', '[data-testid="fg-hand"]',
                                    '[aria-label="Hideout to place"]', 'button:has-text("Place")')
        tops_at_turn = tops(fp)

        def moved(mover, others, action) -> None:
            """Do ``action`` on the mover's page; each other page shows the new
            version within SHOWN_WITHIN seconds of the tap."""
            before = store.version(gid)
            action()
            t0 = time.monotonic()
            deadline = t0 + 30
            while store.version(gid) == before:
                assert time.monotonic() < deadline, "the move was not saved"
                time.sleep(0.02)
            after = store.version(gid)
            for other in others:
                wait_version(other, after)
            latencies.append(time.monotonic() - t0)
            browser.wait_idle(mover)

        def leak_check() -> None:
            """Before the end: the frames and HTML of the Marshal's and the watcher's
            pages hold none of the Fugitive's hidden cards, the Fugitive's and the
            watcher's none of the Marshal's hand."""
            assert not state_of(store, gid)[0].is_over
            hand_line = fugitive_hand_line(store, gid)
            fug_only = (hand_line,) if hand_line else ()
            marks = tuple(marshal_hand_marks(store, gid))
            for name, page, frames in (("marshal", mp, mframes), ("watcher", wp, wframes)):
                html_now = page.content().encode()
                assert_no_leak(f"{name} frames", frames, FUGITIVE_ONLY, fug_only)
                assert_no_leak(f"{name} html", [html_now], FUGITIVE_ONLY, fug_only)
            for name, page, frames in (("fugitive", fp, fframes), ("watcher", wp, wframes)):
                assert_no_leak(f"{name} frames", frames, (), marks)
                assert_no_leak(f"{name} html", [page.content().encode()], (), marks)

        def fugitive_turn() -> None:
            state, _ = state_of(store, gid)
            if state.phase is Phase.FUGITIVE_DRAW:
                deck = fp.locator('[aria-label="Draw from"] button').first.inner_text()
                moved(fp, [mp, wp], lambda: tap(fp, "Draw from", deck))
                state, _ = state_of(store, gid)
            if state.phase is Phase.FUGITIVE_BONUS_DRAW:
                moved(fp, [mp, wp], lambda: press(fp, 'button:has-text("No extra draw")'))
                return
            if fp.locator('[aria-label="Hideout to place"]').count() == 0:
                moved(fp, [mp, wp], lambda: press(fp, 'button:has-text("Pass")'))
                return
            # the thumb rule on every turn: the controls where they were on the first
            on_first_screen(fp, '[aria-label="Hideout to place"]', 'button:has-text("Place")')
            first = fp.locator('[aria-label="Hideout to place"] button').first.inner_text()
            tap(fp, "Hideout to place", first)
            browser.wait_idle(fp)
            if state.phase is Phase.FUGITIVE_PLACE:  # sprint cards under it (a bluff: the Marshal must not see them)
                # the deal is secret, so the hideout may lie beyond a step: sprint cards
                # are added until they carry him there (Place is enabled)
                sprints = fp.locator('[aria-label="Sprint cards under it"] button').filter(
                    has_not_text=re.compile(f"^{first}$"))
                for i in range(sprints.count()):
                    sprints.nth(i).click()
                    browser.wait_idle(fp)
                    if fp.locator('button:has-text("Place")').first.is_enabled():
                        break
            moved(fp, [mp, wp], lambda: press(fp, 'button:has-text("Place")'))
            state, _ = state_of(store, gid)
            if state.phase is Phase.FUGITIVE_OPENING:  # his first turn: one hideout is enough
                moved(fp, [mp, wp], lambda: press(fp, 'button:has-text("End my first turn with one hideout")'))

        def marshal_turn(find_all: bool) -> None:
            state, _ = state_of(store, gid)
            while state.phase is Phase.MARSHAL_DRAW:
                on_first_screen(mp, '[aria-label="Draw from"]')
                deck = mp.locator('[aria-label="Draw from"] button').first.inner_text()
                moved(mp, [fp, wp], lambda: tap(mp, "Draw from", deck))
                state, _ = state_of(store, gid)
            on_first_screen(mp, '[aria-label="Numbers to guess"]', 'button:has-text("Guess")')
            if find_all:  # every face-down hideout at once: the Marshal wins
                numbers = [h.number for h in state.row[1:] if not h.face_up]
            else:  # a card of her own hand: it cannot hit, the match goes on
                numbers = [min(state.marshal_hand)]
            for x in numbers:
                tap(mp, "Numbers to guess", f"{x}◆" if x in state.marshal_hand else str(x))
            browser.wait_idle(mp)
            moved(mp, [fp, wp], lambda: press(mp, 'button:has-text("Guess")'))

        waiting = tops(mp)  # her page while she waits
        fugitive_turn()  # his opening
        assert "Your turn · Marshal" in status_text(mp)
        # her turn came without moving anything under her thumb: the status, what he
        # did, the row and her hand where they were while she waited; the controls under them
        assert tops(mp) == waiting, (tops(mp), waiting)
        assert on_first_screen(mp, '[aria-label="Draw from"]')['[aria-label="Draw from"]'] > waiting[-1]
        fwaiting = tops(fp)
        assert fwaiting == tops_at_turn, (fwaiting, tops_at_turn)
        # the Marshal's page: the status, what he did, the row and her hand where the
        # waiting page had them (nothing moved under her thumb)
        marshal_turn(find_all=False)
        leak_check()
        # two tabs of one player cannot make two moves: his second tab, stale, taps too
        state, _ = state_of(store, gid)
        assert state.phase is Phase.FUGITIVE_DRAW
        fp2 = fp.context.new_page()
        fp2.goto(f"{url}/?page=match&game={gid}&s={fsecret}")
        fp2.wait_for_selector('[aria-label="Draw from"]')
        browser.wait_idle(fp2)
        events_before = len(store.open(gid).record.events)
        decks = fp.locator('[aria-label="Draw from"] button')
        d1, d2 = decks.nth(0).inner_text(), decks.nth(decks.count() - 1).inner_text()
        browser.wait_idle(fp)
        fp.locator('[aria-label="Draw from"] button').filter(has_text=re.compile(f"^{d1}$")).click()
        try:
            fp2.locator('[aria-label="Draw from"] button').filter(has_text=re.compile(f"^{d2}$")).click(timeout=3000)
        except Exception:  # noqa: BLE001 - the stale tab had already caught up: no button to tap
            pass
        browser.wait_idle(fp)
        browser.wait_idle(fp2)
        time.sleep(1.5)
        after = store.open(gid).record.events
        assert len(after) == events_before + 1 and after[-1].type == "fugitive_draw"
        wait_version(fp2, store.version(gid))
        browser.wait_idle(fp2)
        assert fp2.locator('[aria-label="Draw from"]').count() == 0  # both tabs: his placement now
        fp2.close()
        reload_keeps_hand(fp)  # a reload mid-turn loses nothing: his drawn card is still in his hand
        fugitive_turn()
        for _ in range(2):
            marshal_turn(find_all=False)
            leak_check()
            fugitive_turn()
            leak_check()
        # her turn, mid-turn reload: the card she drew stays
        state, _ = state_of(store, gid)
        deck = mp.locator('[aria-label="Draw from"] button').first.inner_text()
        moved(mp, [fp, wp], lambda: tap(mp, "Draw from", deck))
        reload_keeps_hand(mp)
        leak_check()
        marshal_turn(find_all=True)
        state, stored = state_of(store, gid)
        assert state.is_over and state.winner == "marshal"
        assert any(h.sprint_cards for h in state.row[1:])  # the sprint-card check above had cards to find
        for page in (mp, fp, wp):
            page.wait_for_selector('[data-testid="fg-status"]:has-text("Game over")')
        assert mp.locator('button:has-text("Rematch, sides swapped")').count() == 1
        assert wp.locator('button:has-text("Rematch, sides swapped")').count() == 0  # a watcher has no seat
        # the Fugitive's page kept its place on the first screen all along
        assert positions['[data-testid="fg-status"]'] < positions['[aria-label="Hideout to place"]']
    print(f"\nother side's move shown after (s): max {max(latencies):.2f}, "
          f"median {sorted(latencies)[len(latencies) // 2]:.2f}, n {len(latencies)}")
    assert sorted(latencies)[len(latencies) // 2] <= SHOWN_MEDIAN, latencies
    assert max(latencies) <= SHOWN_WITHIN, latencies


def test_a_wrong_truncated_or_other_matchs_secret_sees_nothing(server):
    url, db = server
    store = GameStore(db)
    from notepad.access import new_owner_key

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


def test_the_lists_are_this_browsers_kept_in_a_cookie_with_a_recovery_link(server):
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
        mine.wait_for_selector(f'button:has-text("You: Fugitive vs a friend (Marshal)")')
        assert mine.locator('button:has-text("Continue: You: Fugitive vs a friend")').count() == 1
        # another browser has nothing of it; the recovery link brings the list over
        other.goto(url + "/?page=match")
        other.wait_for_selector('button:has-text("Make the match and the links"), '
                                'button:has-text("Start the match")')
        browser.wait_idle(other)
        assert other.locator('button:has-text("vs a friend")').count() == 0
        other.goto(f"{url}/?page=match&owner={cookie}")
        other.wait_for_selector('button:has-text("You: Fugitive vs a friend (Marshal)")')
        press(other, 'button:has-text("You: Fugitive vs a friend (Marshal)")')
        other.wait_for_selector('[aria-label="Hideout to place"]')  # his seat, from his list
        assert gid in other.url


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
