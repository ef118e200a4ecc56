"""The layers hold at run time too: the rules, the counting and the advice load no
database library and no page library (the import-linter contracts of pyproject.toml,
run by ``make check``, hold them statically)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("sqlalchemy", "psycopg", "streamlit")


@pytest.mark.parametrize("package", ["engine", "notepad", "solver", "advisor"])
def test_importing_a_layer_below_the_app_loads_no_database_and_no_page(package):
    program = (
        "import sys\n"
        f"import {package}\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r}))\n"
        "print(sorted(m for m in sys.modules if m.startswith('notepad.') and m.split('.')[1] in "
        "('store', 'database', 'schema')))\n"
    )
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["[]", "[]"], out.stdout


def test_the_store_is_imported_where_it_is_used():
    """``notepad.store`` loads SQLAlchemy (so the check above can fail): the app and the
    command line import it by name."""
    program = "import sys\nimport notepad.store\nprint('sqlalchemy' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"
