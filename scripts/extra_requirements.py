"""Print the requirements of one optional extra of pyproject.toml, one per line
(``--build``: those of its build system).

``make test`` installs the extras it needs (browser, research) with these lines rather
than with ``pip install -e '.[extra]'``: that form builds and installs the project
again, and so compiles the counting core again (about a minute on a 2-core machine)
for nothing, the project being installed already. Standard library only: it runs
before anything is installed.
"""
from __future__ import annotations

import pathlib
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def requirements(extra: str) -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        extras = tomllib.load(f)["project"]["optional-dependencies"]
    if extra not in extras:
        raise SystemExit(f"pyproject.toml has no optional extra {extra!r} (it has {', '.join(sorted(extras))})")
    return list(extras[extra])


def build_requirements() -> list[str]:
    """What builds the project (``[build-system] requires``): installed in the venv
    before the project, which is then built there (scripts/install.sh)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["build-system"]["requires"])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python scripts/extra_requirements.py EXTRA|--build")
    print("\n".join(build_requirements() if sys.argv[1] == "--build" else requirements(sys.argv[1])))
