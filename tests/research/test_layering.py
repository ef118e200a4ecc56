"""The research adapters are optional extras: the app, the assistant and the CLI never
import them, and they import nothing above the engine."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = ("encoding", "openspiel", "pettingzoo")
RESEARCH_MODULES = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium") + tuple(f"engine.{m}" for m in ADAPTERS)


def test_the_app_the_assistant_and_the_cli_do_not_import_the_research_extras():
    program = (
        "import sys\n"
        "import engine, notepad, solver, advisor, app\n"
        "import app.main, app.assistant, app.match, app.learning, app.services, app.ui\n"
        "import fugitive_cli.main\n"
        f"print(sorted(m for m in {RESEARCH_MODULES!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("module", ADAPTERS)
def test_the_adapters_import_only_the_engine_and_their_libraries(module):
    allowed_roots = {"pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy", "__future__"}
    tree = ast.parse((ROOT / "engine" / f"{module}.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the engine
                assert node.level == 1, ast.dump(node)
                continue
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            root = name.split(".")[0]
            assert root in allowed_roots or root in sys.stdlib_module_names, f"engine/{module}.py imports {name}"
