"""Online matches no one can cheat (issue 30): the attacks 1-5 of the issue, each
played through the app's pages (Streamlit's AppTest: each AppTest is one browser
session; a browser's owner key is put in its session, as its cookie would), each
failing on the code before the issue. Issue 35's attacks follow (a seat belongs to a
person: no identity from a link, no seat by the other player's consent, a call-off for
a thief's invitation, no transfer link, a recovery code shown once).

1. the maker keeps the other seat's link and opens it in another browser;
2. "New link for the Fugitive" offered mid-game, and a new browser in his seat;
3. watchers see the Marshal's drawn cards ("Marshal: drew N");
4. a match not played by links opens for anyone with its id, and can be played;
5. a 100,000-character id in Learning (the page must refuse it at once and drop it
   from the URL, so that no later request carries it).
"""
from __future__ import annotations

import html as htmllib
import re
from urllib.parse import parse_qs, urlsplit

from engine import Draw, PassTurn, apply, fugitive_view, new_game
from engine.moves import PlaceHideout
from store import GameStore, StoreError
from store.access import Role, new_owner_key

from streamlit.testing.v1 import AppTest

from .conftest import APP
from .helpers import html_bodies, no_exception, status, texts


def _link(at, role: str) -> tuple[str, str] | None:
    """(game id, secret) of the link for ``role`` on the page, None when it shows none."""
    body = next((b for b in html_bodies(at) if f'data-testid="fg-link-{role}"' in b), None)
    if body is None:
        return None
    q = parse_qs(urlsplit(htmllib.unescape(re.search(r'data-url="([^"]+)"', body).group(1))).query)
    return q["game"][0], q["s"][0]


def _moves(at) -> list[str]:
    """The controls of a move on the page (their keys)."""
    return [w.key for w in (*at.get("button_group"), *at.button) if (w.key or "").startswith("mc_")]


def _param(at, name: str) -> str | None:
    v = at.query_params.get(name)
    return (v[0] if v else None) if isinstance(v, list) else v


def _hand_html(state) -> str:
    """How the Fugitive's hand is drawn on his page (a card with its footprints)."""
    return f'class="fg-card">{min(state.fugitive_hand)}<span class="s">'


def _invited(make_app, maker: str):
    """The maker's page after she made a match by links through it, as the Marshal:
    (her AppTest, the game id, the Fugitive's link secret)."""
    m = make_app(page="match", owner=maker)
    m.segmented_control(key="m_mode").set_value("online").run()
    m.button(key="m_start").click().run()
    gid, fsecret = _link(m, "fugitive")
    return m, gid, fsecret


def test_attack_1_the_maker_cannot_open_the_seat_her_friend_took(make_app, db):
    maker, friend, thief = new_owner_key(), new_owner_key(), new_owner_key()
    m, gid, fsecret = _invited(make_app, maker)
    f = make_app(page="match", game=gid, s=fsecret, owner=friend)
    no_exception(f)
    assert "Your turn · Fugitive" in status(f) and _moves(f)
    # the link she kept, in another browser: nothing of his seat, no move
    state = new_game(GameStore(db).open(gid).metadata["seed"])
    t = make_app(page="match", game=gid, s=fsecret, owner=thief)
    no_exception(t)
    assert not _moves(t) and "Your turn" not in status(t)
    assert _hand_html(state) not in "\n".join(html_bodies(t)) and 'data-testid="fg-row"' not in texts(t)
    assert "taken" in texts(t)
    # her page: his link is gone once he took the seat
    m.run()
    no_exception(m)
    assert _link(m, "fugitive") is None
    # his own phone still has his seat, and his move is his
    f.run()
    assert "Your turn · Fugitive" in status(f) and _moves(f)
    assert GameStore(db).role_for_owner(gid, thief) is None


def _online_match(db, moves=()):
    """A match by links at the position after ``moves`` (callables of the state, or
    moves): (game id, the maker's key, the Fugitive's key, the watchers' secret, the
    Fugitive's secret)."""
    store = GameStore(db)
    state = new_game(11)
    meta = {"seed": 11, "mode": "online", "claim_after": 86400}
    for mv in moves:
        state = apply(state, mv(state) if callable(mv) else mv)
    mkey, fkey = new_owner_key(), new_owner_key()
    inv = store.create_match(state.record(), side="marshal", owner_key=mkey, metadata=meta)
    store.join(inv.game.id, inv.secret(Role.FUGITIVE), fkey)
    return inv.game.id, mkey, fkey, inv.secret(Role.WATCHER), inv.secret(Role.FUGITIVE)


def _lowest(state):
    return PlaceHideout(fugitive_view(state).legal_hideouts()[0])


def test_attack_2_no_new_link_for_a_seat_that_is_taken(make_app, db):
    gid, mkey, fkey, _, fsecret = _online_match(db, [_lowest, PassTurn(), Draw(1), Draw(2)])
    m = make_app(page="match", game=gid, owner=mkey)  # her page after a reload, mid-game
    no_exception(m)
    assert "m_relink" not in [b.key for b in m.button]
    assert not any("New link" in b.label for b in m.button)
    try:
        GameStore(db).reissue_link(gid, "fugitive")
    except StoreError as exc:
        assert exc.code == "seat_taken"
    else:
        raise AssertionError("a new link was made for a seat that is taken")
    assert "Your turn · Fugitive" not in status(make_app(page="match", game=gid, s=fsecret))
    assert GameStore(db).role_for_owner(gid, fkey) is Role.FUGITIVE


def test_attack_3_watchers_see_the_decks_she_drew_from_never_her_cards(make_app, db):
    gid, _, _, wsecret, _ = _online_match(db, [_lowest, PassTurn(), Draw(1), Draw(2)])
    stored = GameStore(db).open(gid)
    cards = [e.card for e in stored.record.events if e.type == "marshal_draw"]
    w = make_app(page="match", game=gid, s=wsecret)
    no_exception(w)
    assert "Watching" in status(w)
    page = texts(w)
    assert "Marshal: drew from deck 1" in page and "Marshal: drew from deck 2" in page
    for c in cards:
        assert f"Marshal: drew {c}" not in page
        assert f"{c}◆" not in page


def test_attack_4_a_match_without_links_is_its_makers_browser_alone(make_app, db):
    owner = new_owner_key()
    a = make_app(page="match", owner=owner)
    a.segmented_control(key="m_mode").set_value("human_marshal").run()
    a.button(key="m_start").click().run()
    no_exception(a)
    gid = _param(a, "game")
    assert _moves(a)  # her match, her moves
    events = len(GameStore(db).open(gid).record.events)
    for page in ("match", "learning"):
        b = make_app(page=page, game=gid)  # another browser, with only the id
        no_exception(b)
        assert "This match is private" in texts(b), page
        assert not _moves(b) and not status(b)
    assert len(GameStore(db).open(gid).record.events) == events
    assert GameStore(db).role_for_owner(gid, owner) is Role.OWNER


def test_attack_5_a_huge_id_is_refused_at_once_and_leaves_the_url(make_app, db):
    for page in ("learning", "match", "assistant"):
        at = make_app(page=page, game="x" * 100_000)
        no_exception(at)
        assert "game id is not valid (100,000 characters" in texts(at), page
        assert _param(at, "game") is None, page  # a reload, a page switch: never sent again
        assert "x" * 100 not in texts(at)


# --------------------------------------------------------------------------- what is built
def _button(at, prefix: str):
    return next(b for b in at.button if (b.key or "").startswith(prefix))


def _page(at) -> str:
    """Everything the page sent: its texts and its HTML bodies, but for the script that
    puts this browser's key in its own cookie (an AppTest has no cookie, so every run
    sends it; a browser that holds the cookie never gets it again:
    ``test_browser_seats.py`` reads its frames)."""
    cookie = re.compile(r'"name": "fugitive_owner", "value": "[\w-]+"')
    return cookie.sub("", texts(at) + "\n".join(html_bodies(at))) + " ".join(str(e.value) for e in at.code)


# --------------------------------------------------------------------------- issue 35: a seat belongs to a person
def test_issue35_attack_1_a_link_never_says_who_a_browser_is(make_app, db):
    """A maker adds ``&owner=<a key of her second browser>`` to the invitation she
    sends: the friend who opens it takes the seat as himself; her key gains nothing."""
    gid, mkey, _, _, _ = _online_match(db)
    store = GameStore(db)
    inv = store.create_match(new_game(12).record(), side="marshal", owner_key=mkey,
                             metadata={"seed": 12, "mode": "online", "claim_after": 86400})
    second = new_owner_key()  # her second browser
    # the planted link: the friend's browser opens the invitation with her key in it
    at = AppTest.from_file(APP, default_timeout=120)
    for k, v in dict(page="match", game=inv.game.id, s=inv.secret(Role.FUGITIVE), owner=second).items():
        at.query_params[k] = v
    at.run()
    no_exception(at)
    assert "Your turn · Fugitive" in status(at) and _moves(at)
    assert at.session_state["online_owner"] != second and _param(at, "owner") is None
    assert any("Links never say who you are" in str(x.value) for x in at.toast)
    assert store.role_for_owner(inv.game.id, second) is None
    assert store.role_for_owner(inv.game.id, at.session_state["online_owner"]) is Role.FUGITIVE
    her = make_app(page="match", game=inv.game.id, owner=second)  # her second browser: nothing of his
    assert not _moves(her) and "This match is private" in texts(her)
    assert _hand_html(new_game(12)) not in "\n".join(html_bodies(her))


def test_issue35_attack_2_the_other_players_consent_moves_no_seat(make_app, db):
    """The lost-phone request the maker could ask for from a second browser and allow
    herself is gone: a taken seat's link offers nothing to ask, her page nothing to allow."""
    gid, mkey, fkey, _, fsecret = _online_match(db)
    second = new_owner_key()
    b = make_app(page="match", game=gid, s=fsecret, owner=second)  # her second browser, his link
    no_exception(b)
    assert "taken" in texts(b) and not _moves(b)
    assert [w.key for w in b.button] == ["m_private_back"]
    m = make_app(page="match", game=gid, owner=mkey)
    assert not any((w.key or "").startswith(("m_allow_", "m_refuse_", "m_keep_")) for w in m.button)
    assert GameStore(db).role_for_owner(gid, fkey) is Role.FUGITIVE
    assert GameStore(db).role_for_owner(gid, second) is None


def test_issue35_attack_3_the_maker_calls_off_a_match_a_thief_took(make_app, db):
    maker, thief, friend = new_owner_key(), new_owner_key(), new_owner_key()
    m, gid, fsecret = _invited(make_app, maker)
    t = make_app(page="match", game=gid, s=fsecret, owner=thief)  # the thief opens it first
    assert "Your turn · Fugitive" in status(t)
    m.run()
    no_exception(m)
    _button(m, "m_call_off_").click().run()
    no_exception(m)
    new = _param(m, "game")
    assert new != gid and "called off" in texts(m)
    new_gid, new_secret = _link(m, "fugitive")  # the fresh match's new link, on her page
    assert new_gid == new and new_secret != fsecret
    t.run()  # the thief: the old match is over, called off; nothing leads to the new one
    no_exception(t)
    assert "called this match off" in texts(t) and not _moves(t) and "m_open_rematch" not in [w.key for w in t.button]
    assert GameStore(db).role_for_owner(new, thief) is None
    old_link = make_app(page="match", game=new, s=fsecret, owner=thief)
    assert not _moves(old_link)
    f = make_app(page="match", game=new, s=new_secret, owner=friend)
    assert "Your turn · Fugitive" in status(f) and _moves(f)
    # after the invited seat's first move, nobody can call it off or take it
    store = GameStore(db)
    state = new_game(store.open(new).metadata["seed"])
    after = apply(state, _lowest(state))
    store.save(new, after.record(), expected_version=store.version(new), member=(friend, Role.FUGITIVE))
    m.run()
    assert not [w for w in m.button if (w.key or "").startswith("m_call_off_")]


def test_issue35_attack_4_no_transfer_link_and_a_move_param_opens_nothing(make_app, db):
    gid, mkey, fkey, _, _ = _online_match(db)
    f = make_app(page="match", game=gid, owner=fkey)
    no_exception(f)
    assert not [w for w in f.button if (w.key or "").startswith("m_transfer")]
    p = make_app(page="match", game=gid, move="A" * 32, owner=new_owner_key())
    no_exception(p)
    assert not _moves(p) and "This match is private" in texts(p)
    assert GameStore(db).role_for_owner(gid, fkey) is Role.FUGITIVE


def test_issue35_attack_5_the_recovery_code_is_shown_once_and_the_key_never(make_app, db):
    gid, mkey, fkey, _, _ = _online_match(db)
    m = make_app(page="match", owner=mkey)
    assert mkey not in _page(m) and "recovery" not in " ".join(str(e.value) for e in m.code)
    m.button(key="id_make_code").click().run()
    no_exception(m)
    shown = [b for b in html_bodies(m) if 'data-testid="fg-recovery-code"' in b]
    assert len(shown) == 1
    code = re.search(r">([0-9A-Z]{4}(?:-[0-9A-Z]{4}){4})<", shown[0]).group(1)
    m.run()  # any later run: the code is not sent again
    assert code not in _page(m) and mkey not in _page(m)
    m = make_app(page="match", game=gid, owner=mkey)
    assert code not in _page(m) and mkey not in _page(m)


def test_a_lost_phone_comes_back_by_its_own_recovery_code_only(make_app, db):
    gid, mkey, fkey, _, fsecret = _online_match(db)
    old = make_app(page="match", owner=fkey)
    old.button(key="id_make_code").click().run()
    code = re.search(r">([0-9A-Z]{4}(?:-[0-9A-Z]{4}){4})<",
                     next(b for b in html_bodies(old) if "fg-recovery-code" in b)).group(1)
    old = make_app(page="match", game=gid, owner=fkey)
    assert "Your turn · Fugitive" in status(old)
    new = make_app(page="match")  # his new phone
    new.text_input(key="id_code").input(code.lower()).run()
    new.button(key="id_bring").click().run()
    no_exception(new)
    new.query_params["game"] = gid
    new.run()
    assert "Your turn · Fugitive" in status(new) and _moves(new)
    old.run()
    assert not _moves(old) and "moved to another device" in texts(old)
    again = make_app(page="match")  # the code works once
    again.text_input(key="id_code").input(code).run()
    again.button(key="id_bring").click().run()
    assert "No such recovery code" in texts(again)


def test_a_match_on_one_device_is_watched_by_the_link_its_owner_made(make_app, db):
    owner = new_owner_key()
    a = make_app(page="match", owner=owner)
    a.segmented_control(key="m_mode").set_value("human_marshal").run()
    a.button(key="m_start").click().run()
    gid = _param(a, "game")
    draw = next(w for w in a.get("button_group") if (w.key or "").startswith("mc_draw"))
    draw.set_value(1).run()
    a.button(key="m_share").click().run()
    no_exception(a)
    _, wsecret = _link(a, "watcher")
    card = next(e.card for e in GameStore(db).open(gid).record.events if e.type == "marshal_draw")
    w = make_app(page="match", game=gid, s=wsecret)
    no_exception(w)
    assert "Watching" in status(w) and not _moves(w)
    assert "Marshal: drew from deck 1" in texts(w) and f"Marshal: drew {card}" not in texts(w)
    learning = make_app(page="learning", game=gid, s=wsecret)  # her record, her cards: not before the end
    no_exception(learning)
    assert "Learning shows it once it is over" in texts(learning) and f"{card}" not in "".join(
        str(e.value) for e in learning.markdown)
