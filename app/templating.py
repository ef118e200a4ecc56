"""The pages' HTML, CSS and JavaScript as files: Jinja2 templates in app/templates and
the stylesheets and scripts in app/assets.

Why templates with autoescaping rather than f-strings: the entry pad is a Streamlit v2
component, whose HTML Streamlit does not sanitise, and ``st.html`` keeps what it is
given; with every value escaped by the template engine itself, a text from a player (a
game's name, a refusal quoting what she typed) can never become markup, and nobody has
to remember an ``html.escape``. A value that is already HTML is marked so on purpose
(``markupsafe.Markup``), where it is made.

The environment is built once per process: Jinja2 compiles each template on first use
and keeps it. A render still costs more than the f-strings did: the pad, drawn on
every tap, takes about 1 ms more (``python -m bench.pad_server_profile``: 2.5 ms
against 1.4 ms, median, docs/app.md "Speed"), against a tap's 50 ms.
"""
from __future__ import annotations

import functools
import json
import time
from pathlib import Path
from typing import Any, Callable, ClassVar

import jinja2
from markupsafe import Markup

TEMPLATES = Path(__file__).with_name("templates")
ASSETS = Path(__file__).with_name("assets")

__all__ = ["ASSETS", "TEMPLATES", "Drawn", "Markup", "asset", "environment", "macro", "render", "script", "style"]


@functools.cache
def environment() -> jinja2.Environment:
    """The one Jinja2 environment: autoescaping on for every template, undefined names
    an error (a misspelt variable fails the test that draws it, never a blank), blocks'
    whitespace trimmed so that the HTML is as compact as the f-strings made it."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        auto_reload=False,
    )


def render(name: str, /, **context: Any) -> Markup:
    """The template ``name`` (a file of app/templates) drawn with ``context``, as HTML
    that is safe to put into another template unescaped."""
    return Markup(environment().get_template(name).render(**context))


def macro(name: str, macro_name: str, /) -> Callable[..., Markup]:
    """The macro ``macro_name`` of the template ``name``, to call from Python (its
    result is HTML, escaped as in the template)."""
    made: Callable[..., Markup] = getattr(environment().get_template(name).module, macro_name)
    return made


class Drawn:
    """A part of a page that a template writes as ``{{ part }}`` (a frozen dataclass):
    drawn by the macro ``_macro`` of the template ``_template``, and kept by its value.
    Why kept: the pad is drawn again on every tap and mostly holds the parts it held
    the tap before (the buttons of a grid of 41, the entries but the newest, the
    ruled-out numbers of the heat map); a macro call costs some 6 µs, a look here under
    1, which halves the templates' cost (the pad drawn in about 2.5 ms, 1.4 ms from the
    f-strings: ``python -m bench.pad_server_profile``)."""

    __slots__ = ()
    _template: ClassVar[str]
    _macro: ClassVar[str]

    def __html__(self) -> str:
        return _drawn(self)


@functools.lru_cache(maxsize=8192)
def _drawn(part: Drawn) -> str:
    return str(macro(part._template, part._macro)(part))


@functools.cache
def asset(name: str) -> str:
    """The text of app/assets/``name`` (a stylesheet or a script), read once."""
    return (ASSETS / name).read_text(encoding="utf-8")


def style(name: str) -> str:
    """The stylesheet app/assets/``name`` as a ``<style>`` element, for ``st.html``
    (styles only: Streamlit puts them in its event container, not laid out)."""
    return f"<style>\n{asset(name)}</style>\n"


def script(name: str, /, *, fresh: bool = False, **values: object) -> str:
    """The script app/assets/``name`` as a ``<script>`` element, for ``st.html`` with
    ``unsafe_allow_javascript``: the one way a value from Python reaches a page's script.

    The file runs in a scope of its own, ``(() => { ... })()`` (two scripts on a page
    never share a name; a ``return`` ends it early), after ``const FG = {...};``: the
    ``values``, as JSON with every ``<``, ``>`` and ``&`` written as a JavaScript
    escape, so that no value (a game's name, a text in any language) can close the
    script or open a comment in it, whatever it holds. ``fresh`` ends the element with
    a comment holding the time: Streamlit leaves an element it drew before with the
    same text as it is, so without it the browser would not run the script again on
    the next run of the page."""
    prelude = json.dumps(values).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    stamp = f" /* {time.time():.3f} */" if fresh else ""
    return f"<script>(() => {{ const FG = {prelude};\n{asset(name)}}})();{stamp}</script>"
