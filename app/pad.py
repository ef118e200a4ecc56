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
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import streamlit as st

from .i18n import t
from .pad_view import PadView

#: two taps this close (ms, in the page's clock), at one place: one double tap
DOUBLE_MS = 400
#: a tap with no answer after this long (ms) is sent again, with its own id
RESEND_MS = 4000

_JS = """
const DOUBLE_MS = __DOUBLE_MS__;  // two taps this close, at one place: one double tap
const RESEND_MS = __RESEND_MS__;  // a tap with no answer yet goes again (the same id) after this long

export default function(component) {
    const { data, parentElement, setTriggerValue } = component;
    const root = parentElement;
    let pad = root.__fgPad;
    if (!pad) {
        pad = root.__fgPad = { html: null, pending: null, open: new Set(), timer: 0,
                               id: Math.random().toString(36).slice(2, 10), n: 0 };
        window.fgPadLog = window.fgPadLog || [];
        const flash = (el) => {
            el.classList.remove('fg-dropped'); void el.offsetWidth; el.classList.add('fg-dropped');
        };
        const note = (text, ms) => {  // a word from the page itself, over the band (it moves nothing)
            const band = root.querySelector('[data-testid="fg-band"]');
            if (!band || !text) return;
            let box = band.querySelector('.fg-note');
            if (!box) { box = document.createElement('div'); box.className = 'fg-note'; box.setAttribute('role', 'status'); band.appendChild(box); }
            box.textContent = text;
            clearTimeout(pad.noteTimer);
            pad.noteTimer = setTimeout(() => box.remove(), ms || 2500);
        };
        const tap = (event) => {
            const toggle = event.target.closest('[data-toggle]');
            if (toggle && root.contains(toggle)) {
                const name = toggle.dataset.toggle;
                if (pad.open.has(name)) pad.open.delete(name); else pad.open.add(name);
                showOpen();
                return;
            }
            let el = event.target.closest('[data-k]');
            let kind, value = null;
            if (el && root.contains(el)) {
                if (el.disabled) return;
                kind = el.dataset.k;
                if (el.dataset.x !== undefined) value = Number(el.dataset.x);
            } else {
                el = event.target.closest('[data-testid="fg-row"] [data-pick]');
                if (!el || !root.contains(el)) return;
                kind = 'card';
                value = Number(el.dataset.pick);
            }
            const sheet = root.querySelector('[data-testid="fg-pad"]');
            if (!sheet) return;
            // when the finger made it (the input's time), not when this handler runs: a tap
            // queued behind a redraw is handled late, but belongs with the tap before it
            const now = event.timeStamp || performance.now();
            const entry = { seq: pad.id + '-' + (++pad.n), kind, value, version: sheet.dataset.version,
                            at: now, detail: event.detail, outcome: null };
            window.fgPadLog.push(entry);
            if (window.fgPadLog.length > 20000) window.fgPadLog.splice(0, 10000);
            const last = pad.last, pointer = event.detail > 0;
            const control = kind + ':' + value;
            if (pad.pending) {
                entry.outcome = 'busy'; flash(el);
                // dropped, but a double tap it began is still one: its second, after the
                // answer changed the page, is compared with it
                if (pointer) pad.last = { at: now, x: event.clientX, y: event.clientY, version: entry.version, html: pad.html, control };
                return;
            }
            // the second tap of a double tap, made where the first was, after the page changed
            // under it: it was meant for the page before, not for what stands there now
            // (the record changed since: an entry or an Undo was saved; or another control
            // stands there now. The same control again, once the page answered and the
            // record stayed, is a tap she means: a number picked again to take it back)
            if (pointer && last && now - last.at < DOUBLE_MS && Math.hypot(event.clientX - last.x, event.clientY - last.y) < 24
                    && (last.version !== entry.version || (last.html !== pad.html && last.control !== control))) {
                entry.outcome = 'stale'; entry.done = now; flash(el); note(pad.words.double);
                last.at = now;  // a third tap as quick belongs to the same burst, meant for the same page
                return;
            }
            pad.last = pointer ? { at: now, x: event.clientX, y: event.clientY, version: entry.version, html: pad.html, control } : null;
            pad.pending = entry;
            entry.target = el.dataset.k ? '[data-k="' + kind + '"]' + (value === null ? ':not([data-x])' : '[data-x="' + value + '"]')
                                        : '[data-pick="' + value + '"]';
            showPending();
            if (kind === 'open') window.scrollTo({ top: 0 });
            const payload = { g: sheet.dataset.game, v: entry.version, k: kind, x: value, s: entry.seq };
            if (el.dataset.f) payload.f = JSON.parse(el.dataset.f);
            pad.send('tap', payload);
            // no answer yet: the same tap (its id) goes again, which the server applies at
            // most once (a tap it has seen is a duplicate) and answers with what came of it,
            // so the pad learns the outcome and never asks for a second tap
            const again = () => {
                if (pad.pending !== entry) return;
                entry.resent = (entry.resent || 0) + 1;
                note(pad.words.waiting, 4500);
                pad.send('tap', payload);
                pad.timer = setTimeout(again, RESEND_MS);
            };
            clearTimeout(pad.timer);
            pad.timer = setTimeout(again, RESEND_MS);
        };
        const showOpen = () => {
            for (const el of root.querySelectorAll('.fg-hidden[id]')) {
                el.classList.toggle('fg-shown', pad.open.has(el.id.replace(/^fg-/, '')));
            }
            for (const el of root.querySelectorAll('[data-toggle]')) {
                el.setAttribute('aria-expanded', pad.open.has(el.dataset.toggle) ? 'true' : 'false');
            }
        };
        const showPending = () => {
            const sheet = root.querySelector('[data-testid="fg-pad"]');
            if (!sheet) return;
            sheet.classList.toggle('fg-busy', !!pad.pending);
            for (const el of root.querySelectorAll('.fg-sent')) el.classList.remove('fg-sent');
            if (pad.pending) {
                const el = root.querySelector(pad.pending.target);
                if (el) el.classList.add('fg-sent');
            }
        };
        const settle = (outcome) => {
            const entry = pad.pending;
            if (!entry) return;
            entry.outcome = outcome;
            entry.done = performance.now();
            pad.pending = null;
            clearTimeout(pad.timer);
            showPending();
        };
        pad.showOpen = showOpen; pad.showPending = showPending; pad.settle = settle;
        root.addEventListener('click', tap);
        root.addEventListener('keydown', (event) => {  // the row's cards are role="button": Enter and Space tap them
            if ((event.key === 'Enter' || event.key === ' ') && event.target.closest('[data-pick]')) {
                event.preventDefault();
                tap(event);
            }
        });
    }
    // Streamlit sends a trigger from a zero-delay timer, and after a tap the browser draws a
    // frame before it runs such a timer: the tap waited 10 ms (a frame) in the page before
    // it left (bench/app_profile.py: click to send 11 ms, 10 of them the timer's wait). The
    // pad's own sends run that timer's work as a microtask instead, right after the tap's
    // handler; the message is the same, and any other timer is left alone.
    pad.send = (name, value) => {
        const later = window.setTimeout;
        window.setTimeout = function (fn, delay, ...rest) {
            if (delay || typeof fn !== 'function') return later.call(window, fn, delay, ...rest);
            queueMicrotask(() => fn(...rest));
            return 0;
        };
        try { return setTriggerValue(name, value); } finally { window.setTimeout = later; }
    };
    pad.words = data.words || {};
    if (data.html !== pad.html) {
        const oldRow = root.querySelector('[data-testid="fg-row"]');
        const scroll = oldRow ? oldRow.scrollLeft : 0;
        root.innerHTML = data.html;
        pad.html = data.html;
        root.dataset.renders = String((Number(root.dataset.renders) || 0) + 1);  // (the tests' account of redraws)
        const row = root.querySelector('[data-testid="fg-row"]');
        if (row) {  // the ringed card in view (the newest, or the one opened), else where it was
            row.scrollLeft = scroll;
            const ring = row.querySelector('.fg-slot.marked');
            if (ring) {
                const r = row.getBoundingClientRect(), c = ring.getBoundingClientRect();
                if (c.left < r.left) row.scrollLeft += c.left - r.left - 4;
                else if (c.right > r.right) row.scrollLeft += c.right - r.right + 4;
            } else {
                row.scrollLeft = row.scrollWidth;
            }
        }
        pad.showOpen();
    }
    // what she is entering, kept in this tab (sessionStorage) for a reload: a page opened
    // with nothing entered on the version it was kept for sends it back, once
    const sheet = root.querySelector('[data-testid="fg-pad"]');
    if (sheet) {
        const key = 'fgDraft:' + sheet.dataset.game;
        try {
            if (data.draft) {
                sessionStorage.setItem(key, JSON.stringify({ v: data.version, d: data.draft }));
            } else if (pad.restored === undefined) {
                const kept = JSON.parse(sessionStorage.getItem(key) || 'null');
                if (kept && kept.v === data.version && kept.d) {
                    pad.send('tap', { g: sheet.dataset.game, v: data.version, k: 'draft', x: null,
                                      s: pad.id + '-draft', d: kept.d });
                } else {
                    sessionStorage.removeItem(key);
                }
            } else {
                sessionStorage.removeItem(key);
            }
        } catch (e) { /* no storage in this browser: a reload starts the entry again */ }
        pad.restored = true;
    }
    const p = pad.pending;
    if (p && (data.ack === p.seq || data.version !== p.version)) {
        pad.settle(data.ack === p.seq ? data.outcome : 'superseded');
    }
    pad.showPending();
    root.dataset.ack = data.ack || '';
}
"""

_component = st.components.v2.component("fugitive_pad", js=_JS.replace("__DOUBLE_MS__", str(DOUBLE_MS))
                                        .replace("__RESEND_MS__", str(RESEND_MS)),
                                        isolate_styles=False)

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
