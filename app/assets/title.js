// The tab's title starts with the number of her matches waiting for her move, "(2) Fugitive"
// (app/lobby.py, watch_title: every page of a signed-in player; drawn again each time the
// number is counted). What else the page puts in the title stays (the match page's "your
// turn"): a watch on the title element puts the number back in front when it changes.
// FG.waiting: the number (0: none, no prefix).
window.__fgWaiting = FG.waiting;
const fix = () => {
    const base = document.title.replace(/^\(\d+\) /, '');
    const want = (window.__fgWaiting ? '(' + window.__fgWaiting + ') ' : '') + base;
    if (document.title !== want) document.title = want;
};
fix();
const el = document.querySelector('title');
if (el && !window.__fgTitleWatch) {
    window.__fgTitleWatch = new MutationObserver(fix);
    window.__fgTitleWatch.observe(el, {childList: true, characterData: true, subtree: true});
}
