"""The assistant's watch (``app.assistant._watch``, a fragment rerun every two
seconds): it redraws the page when the game changed elsewhere, and when this session
saved an entry that the page has not drawn (at its second look).

The second case is a tap whose new value reached the server in the watch's own timed
run (the tap and the timer at the same moment): its callback saves the entry there,
and the game's fragment is not rerun after it. Called here outside a server (Streamlit's
bare mode: the session state is a plain one), with ``st.rerun`` recorded.
"""
from __future__ import annotations

import pytest
import streamlit as st

from engine.record import Place
from notepad.notepad import Notepad


@pytest.fixture
def watch(db, monkeypatch):
    """(the assistant module, a new game's id, the reruns asked for)."""
    from app import assistant, services

    st.session_state.clear()
    reruns: list[dict] = []
    monkeypatch.setattr(st, "rerun", lambda **kw: reruns.append(kw))
    gid = services.store().create(Notepad().record, kind="assistant").id
    assert assistant._opened(gid)[0] is not None
    yield assistant, gid, reruns
    st.session_state.clear()


def _enter_by_callback(assistant, gid: str) -> None:
    """His first hideout, entered as a control's callback enters it."""
    assert assistant.enter(gid, Place(0))


def test_a_save_the_page_has_not_drawn_reruns_the_page_once(watch):
    assistant, gid, reruns = watch
    assistant._follow_store(gid)  # the page drew the game just now
    _enter_by_callback(assistant, gid)
    assistant._watch.__wrapped__(gid)  # the watch's timed run carried the tap ...
    assert reruns == []  # (... or the game's part runs after it in the same run)
    assistant._watch.__wrapped__(gid)  # two seconds later: still not drawn
    assert reruns == [{"scope": "app"}]
    assistant._watch.__wrapped__(gid)  # once: the rerun draws it
    assert reruns == [{"scope": "app"}]


def test_nothing_saved_or_the_save_drawn_no_rerun(watch):
    assistant, gid, reruns = watch
    assistant._follow_store(gid)
    assistant._watch.__wrapped__(gid)
    assert reruns == []
    _enter_by_callback(assistant, gid)
    assistant._watch.__wrapped__(gid)  # the watch first, in a run folded with the game's ...
    st.session_state.pop(assistant.UNDRAWN)  # ... whose part draws the entry (_game_body)
    assistant._follow_store(gid)
    assistant._watch.__wrapped__(gid)
    assistant._watch.__wrapped__(gid)
    assert reruns == []


def test_a_save_elsewhere_reruns_the_page(watch):
    from app import services

    assistant, gid, reruns = watch
    assistant._follow_store(gid)
    stored = services.store().open(gid).record
    other = Notepad.from_record(stored)
    other.append(Place(0))
    services.store().save(gid, other.record, expected=stored)  # another phone
    st.session_state[assistant.CHECKED] = 0.0  # the watch's last look was long ago
    assistant._watch.__wrapped__(gid)
    assert reruns == [{"scope": "app"}]
