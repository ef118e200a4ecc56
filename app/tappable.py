"""Taps on drawn HTML: the row of cards, the list of entries and the back arrow answer a tap.

Streamlit's widgets cannot be drawn as a row of cards with their sprint cards stacked
under them, and ``st.html`` does not answer a tap. The row and the list stay plain
``st.html`` (drawn at once, with the rest of the page); one hidden Streamlit v2
component (``st.components.v2``: no iframe, its script runs in the page) listens to
taps on their elements that carry ``data-pick`` and reruns the script once with
"card:<position>", "entry:<index>" or "back:0" (a trigger value, gone after that run).
The back arrow of the game page's head line is drawn in the same ``st.html`` as the
status, the row and the band (one element instead of a row of columns, a button and
four elements: each element a tap sends costs a render pass in the browser).

A tap on the list at the bottom of the page also scrolls the page to its top, where
the entry opens (under the thumb); the newest card of a long row is kept in view.

The game page mounts it outside the fragment that a tap on a control reruns, so a
tap does not send it again (each element a tap sends costs a pass of the browser's
renderer); a tap on the row, the list or the arrow reruns the whole page.
"""
from __future__ import annotations

import streamlit as st

_JS = """
export default function(component) {
    const { data, setTriggerValue } = component;
    window.__fgTrigger = setTriggerValue;
    if (!window.__fgTapListening) {
        window.__fgTapListening = true;
        const picked = (event) => {
            const hit = event.target.closest(
                '[data-testid="fg-row"] [data-pick], [data-testid="fg-entries"] [data-pick], [data-testid="fg-back"]');
            if (!hit || !window.__fgTrigger) return;
            if (hit.matches('[data-testid="fg-back"]')) {
                window.__fgTrigger('pick', 'back:0');
                return;
            }
            const inList = hit.closest('[data-testid="fg-entries"]') !== null;
            if (inList) {
                window.scrollTo({top: 0});
                for (const el of document.querySelectorAll('[data-testid="stMain"], [data-testid="stAppViewContainer"]')) {
                    el.scrollTop = 0;
                }
            }
            window.__fgTrigger('pick', (inList ? 'entry:' : 'card:') + hit.getAttribute('data-pick'));
        };
        document.addEventListener('click', picked, true);
        document.addEventListener('keydown', (event) => {  // role="button": Enter and Space tap it too
            if ((event.key === 'Enter' || event.key === ' ') && event.target.closest('[data-pick], [data-testid="fg-back"]')) {
                event.preventDefault();
                picked(event);
            }
        }, true);
    }
    if (!window.__fgRowWatch) {  // a row drawn anew shows its ringed card (the newest, or the one opened)
        let pending = false;
        const show = () => {  // in the next frame: scrolling now would force a layout in the middle of a render
            if (pending) return;
            pending = true;
            requestAnimationFrame(() => {
                pending = false;
                for (const row of document.querySelectorAll('.fg-tap [data-testid="fg-row"]')) {
                    const ring = row.querySelector('.fg-slot.marked');
                    const seen = row.childElementCount + ':' + (ring ? ring.dataset.position : '');
                    if (row.__fgShown === seen) continue;
                    row.__fgShown = seen;
                    if (!ring) { row.scrollLeft = row.scrollWidth; continue; }
                    const r = row.getBoundingClientRect(), c = ring.getBoundingClientRect();
                    if (c.left < r.left) row.scrollLeft += c.left - r.left - 4;
                    else if (c.right > r.right) row.scrollLeft += c.right - r.right + 4;
                }
            });
        };
        window.__fgRowWatch = new MutationObserver(show);
        window.__fgRowWatch.observe(document.body, {childList: true, subtree: true});
        show();
    }
    return () => { if (window.__fgTrigger === setTriggerValue) window.__fgTrigger = undefined; };
}
"""

_component = st.components.v2.component("fugitive_taps", js=_JS, isolate_styles=False)


def _ignore() -> None:
    """The tap is read from the component's result in the same run."""


def taps() -> tuple[str, int] | None:
    """Listen to taps on the row, the list and the back arrow; ("card", position),
    ("entry", index) or ("back", 0) in the run a tap starts, else None. Mounted hidden
    (``.st-key-fgtaps``)."""
    result = _component(key="fgtaps", on_pick_change=_ignore)
    pick = result.pick
    if not isinstance(pick, str) or ":" not in pick:
        return None
    kind, _, value = pick.partition(":")
    if kind not in ("card", "entry", "back") or not value.isdigit():
        return None
    return kind, int(value)
