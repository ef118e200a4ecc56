"""Resign, abandon and delete a match on one device (issue 39, point 7), through
AppTest: against the AI, two people on one phone and AI against AI; the ending saved
like a move, the list no longer saying "your turn", deleting only once confirmed."""
from __future__ import annotations

from store import GameStore, StoreError

from .helpers import keys, no_exception, status, texts


def _gid(at) -> str:
    gid = at.query_params["game"]
    return gid[0] if isinstance(gid, list) else gid


def _start(make_app, mode: str, seed: str = "11"):
    at = make_app(page="match")
    if mode != "human_marshal":
        at.segmented_control(key="m_mode").set_value(mode).run()
    if mode not in ("hotseat",):
        at.text_input(key="m_seed").input(seed).run()
    if mode == "ai_ai":
        at.selectbox(key="m_fbot").set_value("level:casual").run()
        at.selectbox(key="m_mbot").set_value("level:casual").run()
    at.button(key="m_start").click().run()
    no_exception(at)
    return at


def _key(at, prefix: str) -> str:
    return next(k for k in keys(at.button) if k.startswith(prefix))


def test_she_resigns_against_the_ai_and_the_list_says_she_lost(make_app, db):
    at = _start(make_app, "human_marshal")
    gid = _gid(at)
    assert "Your turn" in status(at)
    at.button(key=_key(at, "m_resign_")).click().run()
    no_exception(at)
    stored = GameStore(db).open(gid)
    assert stored.metadata["ended"] == {"how": "resigned", "winner": "fugitive", "events": len(stored.record.events)}
    assert "You lost" in status(at) and "(the Marshal resigned)" in status(at)
    assert not [k for k in keys(at.button) if k.startswith(("mc_", "m_resign_", "m_abandon_"))]
    assert not [w for w in at.segmented_control if (w.key or "").startswith("mc_")]
    at.button(key="m_back").click().run()
    label = next(b.label for b in at.button if b.key == f"mopen_{gid}")
    assert "You lost" in label or "you lost" in label, label
    assert "your turn" not in label.lower()


def test_two_on_one_phone_resign_by_the_side_whose_turn_it_is_and_ai_vs_ai_is_abandoned(make_app, db):
    at = _start(make_app, "hotseat")
    at.button(key=_key(at, "m_ready")).click().run()  # the Fugitive's cards on screen
    at.button(key=_key(at, "m_resign_")).click().run()
    no_exception(at)
    assert GameStore(db).open(_gid(at)).metadata["ended"]["winner"] == "marshal"
    bots = _start(make_app, "ai_ai")
    assert not [k for k in keys(bots.button) if k.startswith("m_resign_")]  # nobody plays a side
    bots.button(key=_key(bots, "m_abandon_")).click().run()
    no_exception(bots)
    gid = _gid(bots)
    assert GameStore(db).open(gid).metadata["ended"]["how"] == "abandoned"
    assert "abandoned: no winner" in status(bots)
    # a watcher of it (its watch link) reads the same, and the match is hers alone to delete
    from store.access import Principal

    secret = GameStore(db).watch_link(gid, Principal.browser(bots.session_state["online_owner"]))
    watcher = make_app(page="match", game=gid, s=secret)
    no_exception(watcher)
    assert "abandoned: no winner" in status(watcher) and "called" not in status(watcher)
    assert not [b for b in watcher.button if (b.key or "").startswith(("m_delete_", "m_abandon_"))]
    bots.button(key="m_back").click().run()
    label = next(b.label for b in bots.button if b.key == f"mopen_{gid}")
    assert "abandoned" in label and "in play" not in label


def test_a_match_is_deleted_only_once_confirmed(make_app, db):
    at = _start(make_app, "human_fugitive")
    gid = _gid(at)
    delete = next(b for b in at.button if b.key == f"m_delete_{gid}")
    assert delete.disabled  # not before the confirmation
    at.checkbox(key=f"m_delete_sure_{gid}").check().run()
    at.button(key=f"m_delete_{gid}").click().run()
    no_exception(at)
    try:
        GameStore(db).open(gid)
        raise AssertionError("still stored")
    except StoreError as exc:
        assert exc.code == "no_game"
    assert "The match was deleted." in texts(at) and not [b for b in at.button if b.key == f"mopen_{gid}"]
