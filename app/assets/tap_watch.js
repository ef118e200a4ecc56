// A tap that saves something and never reached the server is said (app/online.py,
// _lost_tap_watch, whose docstring says how). The browser notes the match's version (the
// status line's data-version) at the tap; once the page is idle and online again for
// FG.lost_ms with the version unmoved and no refusal shown, a note fixed at the foot of
// the screen says the tap was lost. FG.text: its words (the page's language: updated on
// each run, the watch itself set once); FG.selector: the controls whose tap saves.
window.__fgLostText = FG.text;
if (window.__fgLostWatch) return;
window.__fgLostWatch = true;
const version = () => (document.querySelector('[data-testid="fg-status"]') || {dataset: {}}).dataset.version;
const busy = () => !!document.querySelector('[data-testid="stStatusWidgetRunningIcon"]');
let pending = null, idleSince = null;
document.addEventListener('click', (e) => {
    if (!e.target.closest('button') || !e.target.closest(FG.selector)) return;
    pending = {v: version()}; idleSince = null;
    const old = document.getElementById('fg-lost-tap'); if (old) old.remove();
}, true);
setInterval(() => {
    if (!pending) return;
    if (version() !== pending.v || document.querySelector('[data-testid="stAlert"]')) {
        pending = null; return;  // saved, or refused and said
    }
    if (busy() || !navigator.onLine) { idleSince = null; return; }
    const now = performance.now(); if (idleSince === null) { idleSince = now; return; }
    if (now - idleSince < FG.lost_ms) return;
    pending = null;
    const n = document.createElement('div'); n.id = 'fg-lost-tap';
    n.setAttribute('data-testid', 'fg-lost-tap'); n.setAttribute('role', 'alert');
    n.textContent = window.__fgLostText;
    n.style.cssText = 'position:fixed;left:8px;right:8px;bottom:8px;z-index:1000;padding:10px 12px;'
        + 'border-radius:10px;background:#7a1f2b;color:#fff;font:600 15px system-ui,sans-serif';
    n.onclick = () => n.remove(); document.body.appendChild(n);
}, 250);
