"""Tapping the assistant's entry pad (``app.pad``) in Streamlit's AppTest.

AppTest draws the pad (a Streamlit v2 component) but has no way to tap it: a tap is
sent here as the browser sends it, the component's trigger value (``tap``) in the
widget states of the next run. ``pad(at)`` reads what the pad shows: its data (the
HTML, the version its controls carry) and its HTML parsed for the controls.
"""
from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.WidgetStates_pb2 import WidgetState

_seq = itertools.count(1)


def _component(node):
    for child in getattr(node, "children", {}).values():
        if getattr(child, "type", "") == "bidi_component" and child.proto.component_name.endswith("fugitive_pad"):
            return child
        found = _component(child)
        if found is not None:
            return found
    return None


@dataclass
class Control:
    kind: str
    value: int | None
    label: str
    off: bool  #: greyed: not allowed now (a tap says why)
    disabled: bool  #: no tap at all
    attrs: dict


class _Controls(HTMLParser):
    def __init__(self):
        super().__init__()
        self.controls: list[Control] = []
        self._open: Control | None = None
        self.pad: dict = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("data-testid") == "fg-pad":
            self.pad = a
        if "data-k" in a:
            self._open = Control(a["data-k"], int(a["data-x"]) if "data-x" in a else None, "",
                                 "fg-off" in (a.get("class") or "").split(), "disabled" in a, a)
            self.controls.append(self._open)

    def handle_data(self, data):
        if self._open is not None:
            self._open.label += data

    def handle_endtag(self, tag):
        if tag == "button":
            self._open = None


@dataclass
class Pad:
    data: dict
    html: str
    controls: list[Control]
    attrs: dict

    @property
    def version(self) -> str:
        return self.data["version"]

    @property
    def game(self) -> str:
        return self.attrs["data-game"]

    @property
    def screen(self) -> str:
        return self.attrs["data-screen"]

    def control(self, kind: str, value: int | None = None) -> Control:
        found = [c for c in self.controls if c.kind == kind and c.value == value]
        assert found, f"no control {kind} {value} on the {self.screen} screen"
        return found[0]

    def band(self) -> str:
        """The band's words."""
        m = re.search(r'data-testid="fg-band".*?<div class="fg-what"[^>]*>(.*?)</div>', self.html, re.S)
        return _text(m.group(1)) if m else ""

    def text(self) -> str:
        return _text(self.html)


def _text(fragment: str) -> str:
    import html as h

    return h.unescape(re.sub(r"<[^>]+>", " ", fragment)).replace("  ", " ")


def pad(at) -> Pad:
    """What the pad of the page shows (fails when there is none)."""
    el = _component(at._tree)
    assert el is not None, "no entry pad on the page"
    data = json.loads(el.proto.json)
    parser = _Controls()
    parser.feed(data["html"])
    return Pad(data, data["html"], parser.controls, parser.pad)


def tap(at, kind: str, value: int | None = None, *, version: str | None = None, seq: str | None = None,
        fix: dict | None = None, game: str | None = None):
    """Tap the pad as the browser does: one trigger value with the pad's version
    (``version``: another one, as a tap made on an older page), then the run it starts."""
    el = _component(at._tree)
    assert el is not None, "no entry pad on the page"
    shown = pad(at)
    payload = {"g": game or shown.game, "v": version or shown.version, "k": kind, "x": value,
               "s": seq or f"test-{next(_seq)}"}
    if fix is not None:
        payload["f"] = fix
    states = at._tree.get_widget_states()
    state = WidgetState(id=_make_trigger_id(el.proto.id, "events"),
                        json_trigger_value=json.dumps([{"event": "tap", "value": payload}]))
    states.widgets.append(state)
    return at._run(states)


def enter(at, *taps) -> None:
    """Several taps, each on the pad the previous one left: ``("place", 1), ("mdraw", 17)``."""
    for t in taps:
        tap(at, *t)
