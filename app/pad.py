"""The assistant's entry pad in the browser: one Streamlit v2 component
(``st.components.v2``: no iframe, its script runs in the page) that shows the pad's
HTML (``app.pad_view``) and sends each tap, once, with the version it was drawn for.

Why one component rather than Streamlit widgets: a widget's value is sent again with
every rerun of the page, so a value the server had already entered, sent again by the
page's timed rerun before the browser had shown it taken, was entered a second time
(issue 29). A tap here is a trigger value: it goes to the server in exactly one
message and is gone after it (Streamlit clears it once sent), and it carries the
pad's version and its own id (``seq``), so the server applies it to that version only,
once (``app.assistant_logic.Assistant.tap``).

In the page: a tap on a control (``data-k``: its kind, ``data-x``: its value, ``data-f``:
the correction a message offers) or on a card of the row (``data-pick``) is sent as
``{"g", "v", "k", "x", "s", "f"}``; until the server's answer comes back (the pad drawn
again with ``ack`` = that tap's ``seq``, or a newer version) the pad shows the tap
pending and takes no other tap (a tap meanwhile flashes and is dropped). A tap with no
answer after 4 s is sent again with its own id, which the server takes at most once
(``Duplicate``) and answers with what came of it: the pad learns the outcome and says
it is waiting, never "tap again" (issue 36: a tap applied under load was reported lost
after 8 s, and a second tap would have undone it). The second tap of a double tap,
made where the first was within 0.4 s, once the record has changed or another control
stands there, was meant for the page before: it is refused (and so is a third as
quick), with a word over the band, and never applied to the control that now stands
there (issue 29: a double tap on her last card picked a number of the guess that
replaced her cards); the same control tapped again once the page answered, the record
unchanged, is a tap she means (a number picked again to take it back, issue 36). Every
tap and what came of it is kept in ``window.fgPadLog`` (saved, refused, stale, changed,
duplicate; busy: dropped while another was on its way; stale also: a double tap's
second): the page's own account of its taps, which the browser tests compare with the
stored record. Toggles (``data-toggle``: the rest of the candidates, the list of
entries) open and close in the page alone and stay so when the pad is drawn again.

The script is app/assets/pad.js; the pad's styles are the game page's
(app/assets/game.css: ``isolate_styles=False``, the component's HTML in the page's own
styles).
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import streamlit as st

from .i18n import t
from .pad_view import PadView
from .templating import asset

#: two taps this close (ms, in the page's clock), at one place: one double tap
DOUBLE_MS = 400
#: two taps closer than this (px) stand at one place, for a double tap
ONE_PLACE_PX = 24
#: a tap with no answer after this long (ms) is sent again, with its own id
RESEND_MS = 4000


def script() -> str:
    """The pad's script, app/assets/pad.js, with DOUBLE_MS, ONE_PLACE_PX and RESEND_MS filled in from
    here (their one source). Its text, not its path: Streamlit 1.67 takes a path for
    ``js`` only from a component of an installed package that declares an ``asset_dir``
    in its pyproject.toml (``streamlit.components.v2.component_definition_resolver``),
    and the pad is declared in the app."""
    text = asset("pad.js")
    for name, value in (("__DOUBLE_MS__", DOUBLE_MS), ("__ONE_PLACE_PX__", ONE_PLACE_PX), ("__RESEND_MS__", RESEND_MS)):
        if name not in text:
            raise RuntimeError(f"app/assets/pad.js: {name} is not in it (its value comes from app/pad.py)")
        text = text.replace(name, str(value))
    return text


_component = st.components.v2.component("fugitive_pad", js=script(), isolate_styles=False)

#: the pad's key: st.session_state[KEY] holds its last tap (the trigger) during the run the tap starts
KEY = "fgpad"


def draw(view: PadView, ack: tuple[str, str] | None, on_tap: Callable[..., None], args: tuple[object, ...] = (),
         draft: dict[str, Any] | None = None) -> None:
    """Show the pad; ``on_tap(*args)`` is called once for each tap (its payload in
    :func:`last_tap`), before the run that draws the pad again; ``ack``: the last tap
    taken on this game (its seq and outcome), so the page knows its tap was answered;
    ``draft``: what she is entering (``DraftCopy.payload``), kept by the page for a reload."""
    seq, outcome = ack if ack is not None else ("", "")
    _component(key=KEY, data={"html": view.html, "version": view.version, "ack": seq, "outcome": outcome,
                              "draft": draft,
                              "words": {"double": t("double_tap"), "waiting": t("tap_waiting")}},
               on_tap_change=functools.partial(on_tap, *args))


def last_tap() -> object:
    """The payload of the tap being handled (in ``on_tap``)."""
    state = st.session_state.get(KEY)
    return getattr(state, "tap", None) if state is not None else None
