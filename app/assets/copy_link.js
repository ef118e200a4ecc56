// The button beside a link to send (app/links.py, link_box): it opens the phone's share
// sheet where there is one, else copies the link (data-url) and shows ✓. Every such
// button on the page gets it (drawing the box again sets them again).
for (const b of document.querySelectorAll('button.fg-copy')) b.onclick = async () => {
    const u = b.dataset.url;
    try { if (navigator.share) { await navigator.share({url: u}); return; } } catch (e) {}
    try { await navigator.clipboard.writeText(u); b.textContent = '✓'; } catch (e) {}
};
