"""Play a friend by private links (issue 18), through Streamlit's AppTest: each
AppTest is one browser session; a browser's owner key is given to it by its recovery
link (``owner=``), as a cookie would. The browser tests (test_browser_online.py)
play the same in Chromium, two phones at once."""
from __future__ import annotations

import html as htmllib
import re
import time
from urllib.parse import parse_qs, urlsplit

from engine import apply, fugitive_view, new_game
from engine.moves import PassTurn, PlaceHideout
from store import GameStore
from store.access import new_owner_key

from .helpers import html_bodies, no_exception, status, texts


def _link(at, role: str) -> tuple[str, str]:
    body = next(b for b in html_bodies(at) if f'data-testid="fg-link-{role}"' in b)
    url = htmllib.unescape(re.search(r'data-url="([^"]+)"', body).group(1))
    q = parse_qs(urlsplit(url).query)
    return q["game"][0], q["s"][0]


def _param(at, name: str) -> str:
    v = at.query_params[name]
    return v[0] if isinstance(v, list) else v


def _invite(make_app, side: str = "marshal", key: str | None = None):
    at = make_app(page="match", **({"owner": key} if key else {}))
    at.segmented_control(key="m_mode").set_value("online").run()
    if side != "marshal":
        at.segmented_control(key="m_side").set_value(side).run()
    at.button(key="m_start").click().run()
    no_exception(at)
    return at


def _open(make_app, gid: str, secret: str | None = None, key: str | None = None):
    params = {"page": "match", "game": gid}
    if secret is not None:
        params["s"] = secret
    if key is not None:
        params["owner"] = key
    at = make_app(**params)
    no_exception(at)
    return at


def test_each_link_opens_its_own_view_and_nothing_else(make_app, db):
    at = _invite(make_app)
    gid, fsecret = _link(at, "fugitive")
    _, wsecret = _link(at, "watcher")
    assert _param(at, "game") == gid and "s" not in at.query_params  # no link of hers: her browser holds her seat
    assert "Waiting for the Fugitive" in status(at)
    assert not [w for w in at.get("button_group") if (w.key or "").startswith("mc_")]  # nothing to tap while waiting
    # the Fugitive's link: his hand and his controls
    f = _open(make_app, gid, fsecret)
    assert "Your turn · Fugitive" in status(f) and any((w.key or "").startswith("mc_h_") for w in f.get("button_group"))
    state = new_game(GameStore(db).open(gid).metadata["seed"])
    hand = " ".join(str(c) for c in sorted(state.fugitive_hand))
    fugitive_html = "\n".join(html_bodies(f))
    assert 'class="fg-card">' + str(sorted(state.fugitive_hand)[0]) + '<span class="s">' in fugitive_html
    # the Marshal's page and the watcher's never hold his hand
    w = _open(make_app, gid, wsecret)
    assert "Watching" in status(w) and "Fugitive holds" in texts(w) and "Marshal holds" in texts(w)
    for page in (at, w):
        assert '<span class="s">' not in "\n".join(html_bodies(page)), hand
    # no secret, a wrong, truncated or other match's one: "this match is private" only
    other = GameStore(db).create_match(new_game(3).record(), side="marshal", owner_key=new_owner_key(),
                                       metadata={"seed": 3, "mode": "online"})
    for secret in (None, "x" * 32, fsecret[:-2], other.secret("fugitive"), "", "<b>"):
        p = _open(make_app, gid, secret)
        assert "This match is private" in texts(p), secret
        assert not status(p) and 'data-testid="fg-row"' not in texts(p) and "Your hand" not in texts(p)
    # the seat is the first opener's: the link opens nothing for another browser, and
    # it keeps opening his seat for his
    assert "taken" in texts(_open(make_app, gid, fsecret)) and not status(_open(make_app, gid, fsecret))
    assert "Your turn · Fugitive" in status(f.run())


def test_moves_go_from_one_phone_to_the_other_and_a_stale_tap_is_refused(make_app, db, monkeypatch):
    """Each move is made by the controller (``Matches.play``, the path the store's load
    harness drives with several app servers at once); a stale tab's tap is caught
    before it (the page reads the store's version first), so it makes no move at all."""
    from app.match_control import Matches

    played, real_play = [], Matches.play

    def play(self, m, move):
        got = real_play(self, m, move)
        played.append((m.role, type(move).__name__, getattr(got, "code", got)))
        return got

    monkeypatch.setattr(Matches, "play", play)
    mkey, fkey = new_owner_key(), new_owner_key()
    m = _invite(make_app, key=mkey)
    gid, fsecret = _link(m, "fugitive")
    f = _open(make_app, gid, fsecret, key=fkey)
    f2 = _open(make_app, gid, fsecret, key=fkey)  # his second tab
    pills = [w for w in f.get("button_group") if (w.key or "").startswith("mc_h_")]
    assert pills
    store = GameStore(db)
    seed = store.open(gid).metadata["seed"]
    first = fugitive_view(new_game(seed)).legal_hideouts()[0]
    # his second tab picks a hideout too, before the first tab's move
    p2 = [w for w in f2.get("button_group") if (w.key or "").startswith("mc_h_")][0]
    p2.set_value(first).run()
    pills[0].set_value(first).run()
    f.button(key=next(b.key for b in f.button if (b.key or "").startswith("mc_place_"))).click().run()
    no_exception(f)
    assert len(store.open(gid).record.events) == 1
    # the stale tab taps Place: refused (nothing written), and it shows the match as it is
    next(b for b in f2.button if (b.key or "").startswith("mc_place_")).click().run()
    no_exception(f2)
    assert len(store.open(gid).record.events) == 1
    assert "moved on in another window" in texts(f2) or "Not saved" in texts(f2)
    assert played == [("fugitive", "PlaceHideout", None)]
    # he ends his turn; her page, run again (its watch would), shows it: her turn
    f.button(key=next(b.key for b in f.button if (b.key or "").startswith("mc_pass_"))).click().run()
    assert played[1:] == [("fugitive", "PassTurn", None)]  # a turn end, made and saved like a move
    m.run()
    assert "Your turn · Marshal" in status(m)
    assert "moved on in another window" not in texts(m)  # the other side's move: expected, not a warning
    f.run()
    assert "Waiting for the Marshal" in status(f)
    # each browser's list has the match, with its side
    lists = {k: [b.label for b in make_app(page="match", owner=k).button if (b.key or "").startswith("mopen_")]
             for k in (mkey, fkey)}
    assert any("You: Marshal vs a friend" in lb for lb in lists[mkey])
    assert any("You: Fugitive vs a friend" in lb for lb in lists[fkey])
    assert not [b for b in make_app(page="match").button if (b.key or "").startswith("mopen_")]


def _stored_online(db, moves=(), seed: int = 5, claim_after: int = 86400):
    from app.match_meta import MatchMeta

    store = GameStore(db)
    state = new_game(seed)
    meta = MatchMeta(seed, "online", claim_after=claim_after)
    for mv in moves:
        mv = mv(state) if callable(mv) else mv
        state = apply(state, mv)
    mkey, fkey = new_owner_key(), new_owner_key()
    inv = store.create_match(state.record(), side="marshal", owner_key=mkey, metadata=meta.to_json())
    store.join(inv.game.id, inv.secret("fugitive"), fkey)
    return inv.game.id, mkey, fkey


def _lowest(state):
    return PlaceHideout(fugitive_view(state).legal_hideouts()[0])


def test_resign_ends_the_match_for_both_and_a_rematch_swaps_the_sides(make_app, db):
    gid, mkey, fkey = _stored_online(db, [_lowest, PassTurn()])
    m = _open(make_app, gid, key=mkey)
    f = _open(make_app, gid, key=fkey)
    assert "Your turn · Marshal" in status(m)
    f.button(key=next(b.key for b in f.button if (b.key or "").startswith("m_resign_"))).click().run()
    no_exception(f)
    assert GameStore(db).open(gid).metadata["ended"]["how"] == "resigned"
    m.run()
    assert "Game over — You won." in status(m) and "Fugitive resigned" in status(m)
    assert "Draw from" not in [w.label for w in m.get("button_group")]
    m.button(key="m_rematch").click().run()
    no_exception(m)
    new = _param(m, "game")
    assert new != gid and GameStore(db).open(gid).info.rematch == new
    assert "Your turn · Fugitive" in status(m)  # she is the Fugitive now: he moves first
    f.run()
    f.button(key="m_open_rematch").click().run()
    assert _param(f, "game") == new and "Waiting for the Fugitive" in status(f)  # he is the Marshal


def _later(monkeypatch, seconds: float) -> None:
    """The pages' clock (app.services.now) ``seconds`` ahead from now on: the time a
    claim waits for, without waiting it."""
    from app import services

    monkeypatch.setattr(services, "now", lambda: time.time() + seconds)


def test_a_match_idle_for_the_chosen_time_can_be_claimed(make_app, db, monkeypatch):
    gid, mkey, fkey = _stored_online(db, claim_after=3600)  # his turn (the Fugitive moves first)
    m = _open(make_app, gid, key=mkey)
    f = _open(make_app, gid, key=fkey)
    assert not [b for b in m.button if (b.key or "").startswith("m_claim_")] and "No move for" not in texts(m)
    idle = next(b for b in html_bodies(m) if 'data-testid="fg-idle"' in b)
    assert "makes no move within" in idle and ">59 min</span>" in idle  # the time he has left, counted down
    _later(monkeypatch, 3601)  # an hour and a second without a move
    m.run()
    claim = [b for b in m.button if (b.key or "").startswith("m_claim_")]
    assert claim and "No move for" in texts(m)
    assert '"fg-idle">&nbsp;</div>' in "".join(html_bodies(m))  # no time left to count
    assert not [b for b in f.run().button if (b.key or "").startswith("m_claim_")]  # not the one to move
    # he moves in the meantime: her claim from the stale page is refused
    store = GameStore(db)
    state = new_game(5)
    after = apply(state, _lowest(state))
    store.save(gid, after.record(), expected_version=store.version(gid))
    _later(monkeypatch, 0)  # (and the clock is now that of his move)
    claim[0].click().run()
    no_exception(m)
    assert "ended" not in store.open(gid).metadata  # not claimed: his move came first
    assert "Not claimed: the match moved on" in texts(m)  # and she is told why
    assert 'data-events="1"' in status(m) and not [b for b in m.button if (b.key or "").startswith("m_claim_")]
    # still no move of his for the time: now it is hers
    after2 = apply(after, PassTurn())  # his opening ended at one hideout: an event of the record
    store.save(gid, after2.record(), expected_version=store.version(gid))
    m.run()  # her turn: nothing to claim
    assert not [b for b in m.button if (b.key or "").startswith("m_claim_")]


def test_an_owner_in_a_link_is_dropped_and_an_unknown_id_is_a_clear_message(make_app, db):
    from streamlit.testing.v1 import AppTest

    from .conftest import APP

    for value in ("not-a-key", "x" * 100_000, new_owner_key()):
        at = AppTest.from_file(APP, default_timeout=120)
        at.query_params["page"], at.query_params["owner"] = "match", value
        at.run()
        no_exception(at)
        assert at.query_params.get("owner") is None and at.session_state["online_owner"] != value
        assert any("Links never say who you are" in str(x.value) for x in at.toast)
    at = make_app(page="match", game="nosuchgame", s="x" * 32)
    no_exception(at)
    assert "No saved game with id" in texts(at)


def test_a_claim_in_time_ends_the_match_for_both(make_app, db, monkeypatch):
    gid, mkey, fkey = _stored_online(db, claim_after=3600)
    m = _open(make_app, gid, key=mkey)
    f = _open(make_app, gid, key=fkey)
    _later(monkeypatch, 3601)
    m.run()
    next(b for b in m.button if (b.key or "").startswith("m_claim_")).click().run()
    no_exception(m)
    ended = GameStore(db).open(gid).metadata["ended"]
    assert ended["how"] == "claimed" and ended["winner"] == "marshal"
    assert "You won." in status(m)
    f.run()
    assert "Game over" in status(f) and "made no move in time" in status(f)
    assert not [w for w in f.get("button_group") if (w.key or "").startswith("mc_")]  # no move after the end


def test_a_match_by_links_reads_in_korean(make_app, db):
    gid, mkey, fkey = _stored_online(db)
    m = make_app(page="match", game=gid, owner=mkey, lang="ko")
    no_exception(m)
    assert "도망자의 차례를 기다리는 중" in status(m) and "도망자이(가) 참여했습니다" in texts(m)
    f = make_app(page="match", game=gid, owner=fkey, lang="ko")
    assert "도망자" in status(f) and "기권" in texts(f) + " ".join(e.label for e in f.expander)
    assert "비공개 대전입니다." in texts(make_app(page="match", game=gid, s="y" * 32, lang="ko"))


def test_games_of_no_browser_are_offered_only_on_the_serving_machine(make_app, db):
    # a game saved before lists were per browser (or by the command line) belongs to no
    # browser: a browser elsewhere (no Host of this machine) is not told it exists
    from engine.record import Record

    GameStore(db).create(Record(), title="old notes")
    at = make_app(page="assistant")
    no_exception(at)
    assert not [b for b in at.button if b.key == "adopt_assistant"]
    assert "old notes" not in " ".join(b.label for b in at.button)


def test_a_resignation_from_a_stale_page_is_refused_and_said_so(make_app, db):
    """She resigns from a page that does not show his last move yet: the resignation
    is judged against the match as her page showed it, so it is refused, with the
    reason, and the match goes on."""
    gid, mkey, fkey = _stored_online(db)  # his turn (the Fugitive moves first)
    m = _open(make_app, gid, key=mkey)
    resign = next(b for b in m.button if (b.key or "").startswith("m_resign_"))
    store = GameStore(db)
    state = new_game(5)
    store.save(gid, apply(state, _lowest(state)).record(), expected_version=store.version(gid))
    resign.click().run()
    no_exception(m)
    assert "ended" not in store.open(gid).metadata
    assert "Not saved:" in texts(m) and 'data-events="1"' in status(m)
