"""``fugitive doctor``: what this installation runs on: versions, and the counting core
(compiled or Python, and why)."""
from __future__ import annotations

import argparse
import platform
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    pass


def report() -> list[str]:
    from importlib.metadata import PackageNotFoundError, version

    from solver.counting import core_report

    try:
        mine = version("fugitive")
    except PackageNotFoundError:
        mine = "(not installed)"
    return [f"fugitive {mine}, Python {platform.python_version()} ({sys.executable})", core_report()]


def run(args: argparse.Namespace) -> int:
    print("\n".join(report()))
    return 0
