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
        "import engine, notepad, solver, advisor, store, app\n"
        "import app.main, app.assistant, app.match, app.learning, app.services, app.ui\n"
        "import fugitive_cli.main\n"
        f"print(sorted(m for m in {RESEARCH_MODULES!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def _lazy_imports(tree: ast.Module) -> set[int]:
    """ids of the import nodes inside function bodies (run when called, not at import)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.update(id(n) for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
    return out


#: what an adapter may import inside a function only: engine.openspiel's resampling
#: asks the solver's exact sampler (docs/research.md)
LAZY = {"openspiel": {"solver"}}


@pytest.mark.parametrize("module", ADAPTERS)
def test_the_adapters_import_only_the_engine_and_their_libraries(module):
    allowed_roots = {"pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy", "__future__"}
    tree = ast.parse((ROOT / "engine" / f"{module}.py").read_text())
    lazy = _lazy_imports(tree)
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
            if id(node) in lazy and root in LAZY.get(module, ()):
                continue
            assert root in allowed_roots or root in sys.stdlib_module_names, f"engine/{module}.py imports {name}"


def test_importing_the_openspiel_adapter_loads_no_solver():
    pytest.importorskip("pyspiel")
    program = "import sys\nimport engine.openspiel\nprint(sorted(m for m in sys.modules if m.split('.')[0] in ('solver', 'advisor', 'notepad', 'store')))\n"
    out = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
