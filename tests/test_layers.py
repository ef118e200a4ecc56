"""The layers hold at run time too: the rules, the notepad, the counting and the advice
load no store, no database library and no page library (the import-linter contracts of
pyproject.toml, run by ``make check``, hold them statically); the store loads its
database library and no page; and the database setting is read in one place."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("sqlalchemy", "psycopg", "streamlit")
#: the packages of the program (not the tests, the harness or the benchmarks)
PACKAGES = ("engine", "notepad", "solver", "advisor", "store", "app", "fugitive_cli")


def _loaded(program: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", "import sys\n" + program], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.split("\n")


@pytest.mark.parametrize("package", ["engine", "notepad", "solver", "advisor"])
def test_importing_a_layer_below_the_store_loads_no_store_no_database_and_no_page(package):
    lines = _loaded(
        f"import {package}\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))\n"
        "print(sorted(m for m in sys.modules if m == 'store' or m.startswith('store.')))\n"
    )
    assert lines[:2] == ["[]", "[]"], lines


def test_the_store_loads_its_database_library_and_neither_the_counting_nor_the_page():
    """``store`` loads SQLAlchemy (so the check above can fail): the app and the command
    line import it by name."""
    lines = _loaded("import store\nprint(sorted({m.split('.')[0] for m in sys.modules} & "
                    "{'sqlalchemy', 'streamlit', 'solver', 'advisor'}))\n")
    assert lines[0] == "['sqlalchemy']", lines


def test_the_database_setting_is_read_in_one_place():
    """``FUGITIVE_DB`` is named in code (not in a message or a docstring) only by
    ``store.database.configured_location``: every other module asks it."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Constant) and node.value == "FUGITIVE_DB":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert len(found) == 1 and found[0].startswith("store/database.py:"), found


def test_the_command_line_loads_the_store_only_for_the_games_command():
    """Every command's module is imported to build ``fugitive``'s parser, so a command
    module imports what its command needs inside ``run`` (fugitive_cli.main): checking a
    record never pays for the database library (it did, 0.3-1.5 s a call, once
    ``fugitive games`` imported the store at its top)."""
    lines = _loaded("from fugitive_cli.main import build_parser\nbuild_parser()\n"
                    f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY) | {'store'}!r}))\n")
    assert lines[0] == "[]", lines
