"""The set-up's own helpers (``make test`` runs them before anything is installed)."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "extra_requirements.py"


def _extras() -> dict[str, list[str]]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT, check=False)


def test_each_extras_requirements_are_printed_one_per_line_as_pyproject_has_them():
    extras = _extras()
    assert {"browser", "research"} <= set(extras)  # the two make test installs by their lines
    for name, requirements in extras.items():
        got = _run(name)
        assert got.returncode == 0, got.stderr
        assert got.stdout.splitlines() == requirements


def test_an_unknown_extra_or_no_extra_is_said_and_fails():
    extras = _extras()
    got = _run("browsers")
    assert got.returncode == 1 and got.stdout == ""
    assert "no optional extra 'browsers'" in got.stderr and ", ".join(sorted(extras)) in got.stderr
    got = _run()
    assert got.returncode == 1 and "usage:" in got.stderr


def test_the_build_systems_requirements_are_printed_as_pyproject_has_them():
    """scripts/install.sh installs them in the venv and builds the project there (the
    compiled core from the same paths at every install: ccache's hits)."""
    got = _run("--build")
    assert got.returncode == 0, got.stderr
    want = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    assert got.stdout.splitlines() == want and any(r.startswith("nanobind") for r in want)
