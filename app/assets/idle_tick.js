// The time left before the waiting player may claim the match, counted down each second
// (app/online.py, _idle_line). Each span.fg-left holds the milliseconds left when the
// server drew it (data-left) and its words for hours, minutes, seconds (data-h, data-m,
// data-s); the browser counts from the moment it first sees the span, by its own
// monotonic clock, so two phones whose clocks differ show the same time. One interval
// for the page, however often the line is drawn.
const tick = () => {
    for (const e of document.querySelectorAll('span.fg-left')) {
        if (e.dataset.t0 === undefined) e.dataset.t0 = performance.now();
        const s = Math.max(0, (Number(e.dataset.left) - (performance.now() - Number(e.dataset.t0))) / 1000);
        const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60);
        e.textContent = h ? e.dataset.h.replace('{h}', h).replace('{m}', m)
            : m ? e.dataset.m.replace('{m}', m) : e.dataset.s;
    }
};
tick();
if (!window.__fgLeft) window.__fgLeft = setInterval(tick, 1000);
