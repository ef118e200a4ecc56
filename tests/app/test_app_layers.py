"""The match's modules import downwards only: ``app.match`` (the match page) uses
``app.online`` (matches played by links) and ``app.match_play`` (one seat's view and
moves), ``app.online`` uses ``app.match_play``, and ``app.match_play`` neither. An
import inside a function counts too: it hides a cycle, it does not remove it."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"


def _app_imports(module: str) -> set[str]:
    """The app modules ``module`` imports anywhere in its file (``from . import x``,
    ``from .x import y``, ``import app.x``)."""
    tree = ast.parse((APP / f"{module}.py").read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("app."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("app."))
    return found


@pytest.mark.parametrize(("module", "above"), [
    ("match_play", {"match", "online", "main"}),
    ("online", {"match", "main"}),
    ("match_logic", {"match", "online", "match_play", "main"}),
])
def test_a_match_module_imports_nothing_above_it(module, above):
    assert not (_app_imports(module) & above)


def test_the_match_page_is_made_of_the_modules_below_it():
    assert {"online", "match_play", "match_logic"} <= _app_imports("match")
