// The entry pad's script: the code of the Streamlit v2 component "fugitive_pad" (app/pad.py,
// whose docstring says what it does and why). It runs in the page itself (no iframe).
// DOUBLE_MS, ONE_PLACE_PX and RESEND_MS are filled in by app/pad.py from its constants,
// their one source (the browser tests and the tap storm read them there).
const DOUBLE_MS = __DOUBLE_MS__;  // two taps this close, at one place: one double tap
const ONE_PLACE_PX = __ONE_PLACE_PX__;  // two taps closer than this stand at one place
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
            if (pointer && last && now - last.at < DOUBLE_MS && Math.hypot(event.clientX - last.x, event.clientY - last.y) < ONE_PLACE_PX
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
