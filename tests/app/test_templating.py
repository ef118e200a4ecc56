"""The pages' templates and asset files (``app.templating``): every template compiles,
the pad's script gets its timings from Python, the stylesheets are what the pages send,
every other script takes its values from Python through one escaped path."""
from __future__ import annotations

import re
from pathlib import Path

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


def _parsed(html: str) -> list[tuple[str, str, object]]:
    """``html`` as a browser's parser reads it: start tags (with their attributes), end
    tags and text, the text of an element in one piece."""
    from html.parser import HTMLParser

    parts: list[tuple[str, str, object]] = []

    class Parts(HTMLParser):
        def handle_starttag(self, tag, attrs):
            parts.append(("start", tag, attrs))

        def handle_endtag(self, tag):
            parts.append(("end", tag, None))

        def handle_data(self, data):
            if parts and parts[-1][0] == "text":
                data = str(parts.pop()[2]) + data
            parts.append(("text", "", data))

    parser = Parts()
    parser.feed(html)
    parser.close()
    return parts


def test_the_stylesheets_are_style_elements_of_the_asset_files():
    """What a page sends for each stylesheet is one ``<style>`` element, without
    attributes, holding the whole file as it is on disk, and nothing else."""
    from app import assistant, match_play, ui

    for css, name in ((assistant.GAME_CSS, "game.css"), (match_play.MATCH_CSS, "match.css"),
                      (ui.PHONE_CSS, "phone.css"), (ui.KOREAN_CSS, "korean.css")):
        on_disk = (Path(templating.__file__).parent / "assets" / name).read_text(encoding="utf-8")
        parts = [part for part in _parsed(css) if part[0] != "text" or str(part[2]).strip()]
        assert [(kind, tag) for kind, tag, _ in parts] == [("start", "style"), ("text", ""), ("end", "style")], (
            name, parts[:4])
        assert parts[0][2] == [], (name, parts[0])  # no attribute
        assert str(parts[1][2]).strip() == on_disk.strip() != "", name
        # (issue 29: Streamlit's sanitizer dropped a whole style block holding a "<")
        assert "<" not in on_disk, name


def test_every_script_asset_is_sent_by_a_module():
    """Each app/assets/*.js is a page's script: the pad's is the component's
    (``asset("pad.js")``), every other one goes through ``templating.script``."""
    sources = "\n".join(p.read_text(encoding="utf-8") for p in Path(templating.__file__).parent.glob("*.py"))
    names = sorted(p.name for p in templating.ASSETS.glob("*.js"))
    assert {"pad.js", "title.js", "idle_tick.js", "turn_signal.js", "tap_watch.js", "copy_link.js",
            "cookie.js"} <= set(names)
    for name in names:
        assert f'script("{name}"' in sources or f'asset("{name}")' in sources, name
        # nothing in a file may end the element it is sent in, or open a comment there
        assert "</script" not in templating.asset(name).lower() and "<!--" not in templating.asset(name), name


def test_a_value_reaches_a_script_escaped_and_cannot_end_it():
    """``script`` is the one path from Python into a page's script: the values are JSON
    with ``<``, ``>`` and ``&`` escaped, so a hostile text stays a string of the script."""
    import json

    hostile = "</script><img src=x onerror=alert(1)><!-- & </SCRIPT >"
    sent = templating.script("turn_signal.js", key="fg-mine-x", mine=True, title=hostile)
    assert sent.startswith("<script>(() => { const FG = {") and sent.endswith("})();</script>")
    inner = sent[len("<script>"):-len("</script>")]
    assert "<" not in inner.split("\n", 1)[0] and ">" not in inner.split("\n", 1)[0].replace("=>", "")
    assert "</" not in inner and "<!--" not in inner and "<img" not in inner
    prelude = inner.split("\n", 1)[0].removeprefix("(() => { const FG = ").removesuffix(";")
    assert json.loads(prelude) == {"key": "fg-mine-x", "mine": True, "title": hostile}  # the same text, unharmed
    assert templating.asset("turn_signal.js") in inner  # the file itself, as it is
    # fresh: a comment with the time, so that Streamlit draws the element again and the browser runs it again
    assert re.fullmatch(r".*\}\)\(\); /\* \d+\.\d{3} \*/</script>", templating.script("title.js", fresh=True, waiting=2),
                        flags=re.S)
