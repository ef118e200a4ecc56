"""The assistant's watch (``app.assistant._watch``, a fragment rerun every two
seconds): it redraws the page when the game changed elsewhere, and only then.

Its timed run carries no tap of the pad (a trigger, sent once with its own rerun):
a widget's value used to come back with it and be entered twice (issue 29), which
test_browser_taps.py checks in the browser. Called here outside a server
(Streamlit's bare mode: the session state is a plain one), with ``st.rerun`` recorded.
"""
from __future__ import annotations

import pytest
import streamlit as st

from engine.record import Place
from notepad.notepad import Notepad


@pytest.fixture
def watch(db, monkeypatch):
    """(the assistant module, a new game's id, the reruns asked for)."""
    from app import assistant, identity, services
    from app.assistant_logic import OpenGame

    st.session_state.clear()
    reruns: list[dict] = []
    monkeypatch.setattr(st, "rerun", lambda **kw: reruns.append(kw))
    gid = services.store().create(Notepad().record, kind="assistant", owner_key=identity.owner_key()).id
    assert isinstance(assistant.controller().game(assistant._session(), gid), OpenGame)
    yield assistant, gid, reruns
    st.session_state.clear()


def test_nothing_changed_no_rerun_and_its_own_saves_are_no_change(watch):
    from app.assistant_logic import Tap

    assistant, gid, reruns = watch
    assistant._watch.__wrapped__(gid)
    session = assistant._session()
    version = session.games[gid].version
    assistant.controller().tap(session, gid, Tap(gid, version, "place", 0, "a"))  # a tap of this page, saved
    session.checked = 0.0
    assistant._watch.__wrapped__(gid)
    assert reruns == []


def test_a_save_elsewhere_reruns_the_page(watch):
    from app import services

    assistant, gid, reruns = watch
    stored = services.store().open(gid).record
    other = Notepad.from_record(stored)
    other.append(Place(0))
    services.store().save(gid, other.record, expected=stored)  # another phone
    session = assistant._session()
    session.checked = 0.0  # the watch's last look was long ago
    assistant._watch.__wrapped__(gid)
    assert reruns == [{"scope": "app"}]
    reruns.clear()
    assistant._watch.__wrapped__(gid)  # within a second of its last look: no read, no rerun
    assert reruns == []
