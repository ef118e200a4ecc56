"""Settings for every test.

Hypothesis runs derandomized under ``make test`` and in CI (``HYPOTHESIS_PROFILE=ci``:
the same examples every run, so a red CI is a change in the code, not a new draw);
``make test-fast`` and a plain ``pytest`` use the ``dev`` profile, which draws new
examples each run and so keeps looking for what the fixed ones miss.
"""
from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_report_header(config):
    """Which counting core the tests run on (the compiled one, or the Python one and why)."""
    from solver.counting import core_report

    return core_report()
