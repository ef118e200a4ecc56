"""The pages' templates and asset files (``app.templating``): every template compiles,
the pad's script gets its timings from Python, the stylesheets are what the pages send."""
from __future__ import annotations

import re

from app import pad, templating


def test_every_template_compiles_with_autoescaping():
    env = templating.environment()
    names = env.list_templates(extensions=["html"])
    assert "pad/pad.html" in names and "pad/macros.html" in names
    for name in names:
        env.get_template(name)  # a syntax error fails here, not on a tap
    assert templating.render("pad/over.html", winner="<b>", why="&", nothing="x") == (
        '<div class="fg-over" data-testid="fg-over"><b>&lt;b&gt;</b> &amp;</div><div class="fg-caption">x</div>')


def test_the_pad_script_takes_its_timings_from_python():
    """DOUBLE_MS and RESEND_MS have one source, app/pad.py: app/assets/pad.js holds
    placeholders that the component's script has filled in."""
    js = pad.script()
    assert "__" not in re.sub(r"__fgPad", "", js)
    assert f"const DOUBLE_MS = {pad.DOUBLE_MS};" in js and f"const RESEND_MS = {pad.RESEND_MS};" in js
    assert "export default function(component)" in js


def test_the_stylesheets_are_style_elements_of_the_asset_files():
    from app import assistant, match_play, ui

    for css, name in ((assistant.GAME_CSS, "game.css"), (match_play.MATCH_CSS, "match.css"),
                      (ui.PHONE_CSS, "phone.css"), (ui.KOREAN_CSS, "korean.css")):
        assert css == f"<style>\n{templating.asset(name)}</style>\n"
        # (issue 29: Streamlit's sanitizer dropped a whole style block holding a "<")
        assert "<" not in templating.asset(name), name
