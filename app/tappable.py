"""Tappable HTML: a drawing (the row of cards, the list of entries) whose parts answer a tap.

Streamlit's widgets cannot be drawn as a row of cards with their sprint cards stacked
under them, and ``st.html`` does not answer a tap. This is a Streamlit v2 component
(``st.components.v2``: no iframe, the HTML lives in the page and takes the page's
CSS): it shows the given HTML, and a tap on an element with ``data-pick="..."``
reruns the script once with that value (a trigger value, gone after the run).

It also scrolls the page to its top when asked (``scroll`` changes), for an entry
opened from the list at the bottom: the entry opens at the top, under the thumb.
"""
from __future__ import annotations

import streamlit as st

_JS = """
export default function(component) {
    const { data, setTriggerValue, parentElement } = component;
    let box = parentElement.querySelector(':scope > .fg-tap');
    if (!box) {
        box = document.createElement('div');
        box.className = 'fg-tap';
        parentElement.appendChild(box);
    }
    if (box.__html !== data.html) {
        box.innerHTML = data.html;
        box.__html = data.html;
        // the newest card is at the right end of a long row: keep it in view
        for (const row of box.querySelectorAll('.fg-row')) row.scrollLeft = row.scrollWidth;
    }
    box.onclick = (event) => {
        const hit = event.target.closest('[data-pick]');
        if (hit && box.contains(hit)) setTriggerValue('pick', hit.getAttribute('data-pick'));
    };
    if (data.scroll && box.__scroll !== data.scroll) {
        box.__scroll = data.scroll;
        window.scrollTo({top: 0});
        for (const el of document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"]')) {
            el.scrollTop = 0;
        }
    }
}
"""

_component = st.components.v2.component("fugitive_tappable", js=_JS, isolate_styles=False)


def _ignore() -> None:
    """The tap is read from the component's result in the same run."""


def tappable(html: str, key: str, scroll: str = "") -> str | None:
    """Show ``html``; the ``data-pick`` value of the element tapped, in the run that
    the tap starts (else None). A new ``scroll`` value scrolls the page to its top."""
    result = _component(key=key, data={"html": html, "scroll": scroll}, on_pick_change=_ignore)
    return result.pick
