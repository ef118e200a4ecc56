"""What the page draws can be read, with the phone in light and in dark mode (issue 29,
point 5): every text element of the assistant's screens, measured in Chromium as the
browser draws it (computed colours, the background under it composed from its
ancestors, the text's colour with every ancestor's opacity), has a contrast of at
least 4.5:1 (WCAG AA for text). The app is light on
purpose (.streamlit/config.toml): in dark mode it must stay the same page, not light
text on the pages' light boxes.
"""
from __future__ import annotations

import pytest

from engine.record import MarshalDraw, Place
from harness import browser, taps

pytestmark = pytest.mark.browser

#: every element with text of its own: its text's contrast with what lies under it
CONTRASTS = """() => {
    const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return [0, 0, 0, 0];
        const p = m[1].split(',').map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
    const over = (top, under) => { const a = top[3]; return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]); };
    const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
    const background = (e) => {
        const layers = [];
        for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
            const bg = parse(getComputedStyle(n).backgroundColor);
            if (bg[3] > 0) layers.push(bg);
            if (bg[3] >= 1) break;
        }
        let colour = [255, 255, 255, 1];  // the canvas under a transparent page
        for (const l of layers.reverse()) colour = over(l, colour);
        return colour;
    };
    const out = [];
    for (const e of document.querySelectorAll('body *')) {
        const own = [...e.childNodes].filter(n => n.nodeType === 3 && n.textContent.trim()).map(n => n.textContent.trim());
        if (!own.length) continue;
        const s = getComputedStyle(e), r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || s.visibility === 'hidden' || s.display === 'none') continue;
        let hidden = false;
        for (let n = e; n; n = n.parentElement) { const st = getComputedStyle(n);
            if (st.display === 'none' || st.visibility === 'hidden' || Number(st.opacity) === 0) { hidden = true; break; } }
        if (hidden || e.closest('script, style, noscript, [aria-hidden="true"]')) continue;
        // an ancestor's opacity lays the page under it through the text too (Streamlit's
        // captions are dark text at opacity 0.6: 3.89:1, issue 36)
        let opacity = 1;
        for (let n = e; n && n.nodeType === 1; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
        const bg = background(e), text = parse(s.color);
        const fg = over([text[0], text[1], text[2], text[3] * opacity], bg);
        const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
        out.push([own.join(' ').slice(0, 50), (a + 0.05) / (b + 0.05), s.color, 'rgb(' + bg.slice(0, 3).map(Math.round).join(', ') + ')',
                  e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '')]);
    }
    return out;
}"""


#: the app's stylesheet is on the page: an ``st.html`` element, drawn by a part of
#: Streamlit's page that it loads when first needed (late on a loaded machine: until
#: then its captions are Streamlit's, 3.89:1, seen twice in make test)
STYLED = """() => [...document.querySelectorAll('style')].some(s => s.textContent.includes('stCaptionContainer'))"""


def _low(page, screen: str) -> list[str]:
    browser.wait_idle(page)
    page.wait_for_function(STYLED)
    measured = page.evaluate(CONTRASTS)
    assert len(measured) > 10, measured  # the page is there
    return [f"{screen}: {text!r} ({where}) {fg} on {bg}: {ratio:.2f}" for text, ratio, fg, bg, where in measured
            if ratio < 4.5]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_text_of_the_assistant_reads_in_both_colour_schemes(server, scheme):
    with browser.phone_page(color_scheme=scheme) as page:
        assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
        low: list[str] = []
        page.goto(server + "/?page=assistant")
        page.get_by_role("button", name="Start").wait_for()
        low += _low(page, "the list")
        taps.new_game(page, server)
        low += _low(page, "his first hideout")
        taps.enter(page, Place(1), 1)
        low += _low(page, "her draw, a placement confirmed")
        assert taps.tap_pad(page, taps.control(page, "place", 7)) == "refused"  # greyed: the band says why
        low += _low(page, "a refusal")
        taps.enter(page, MarshalDraw(17), 2)
        taps.enter(page, MarshalDraw(6), 3)
        taps.tap_pad(page, taps.control(page, "pick", 1))
        taps.tap_pad(page, taps.control(page, "pick", 17))
        low += _low(page, "her guess, two numbers chosen")
        # read at arm's length (issue 29 point 8): the legend 14 px, each number and its
        # percentage on the heat map's buttons no smaller than 12 px
        sizes = page.evaluate("""() => ({
            legend: [...document.querySelectorAll('[data-testid="fg-legend"], .fg-legend')]
                .map(e => parseFloat(getComputedStyle(e).fontSize)),
            cells: [...document.querySelectorAll('[data-testid="fg-guess"] [data-k="pick"] *')]
                .filter(e => e.textContent.trim()).map(e => parseFloat(getComputedStyle(e).fontSize))})""")
        assert sizes["legend"] and min(sizes["legend"]) >= 14, sizes
        assert sizes["cells"] and min(sizes["cells"]) >= 12, sizes
        page.locator('[data-toggle="entries"]').click()
        low += _low(page, "the list of entries")
        taps.tap_pad(page, taps.control(page, "pick", 17))
        taps.tap_pad(page, taps.control(page, "hit"))
        low += _low(page, "a hit's panel")
        taps.tap_pad(page, taps.control(page, "hitcancel"))
        taps.tap_pad(page, taps.control(page, "open", 0))
        low += _low(page, "an entry opened for correction")
        page.get_by_text("Export", exact=True).click()
        page.get_by_text("Game id:").wait_for()
        low += _low(page, "the export")
    assert not low, "\n".join(low)
