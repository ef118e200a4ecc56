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
# a text of the app whose placeholder its caller did not give fails (app.i18n.t), here
# and in the app servers the browser tests start
os.environ["FUGITIVE_STRICT_TEXT"] = "1"

# the store's two databases (SQLite, a throwaway PostgreSQL): fixtures backend, store
from tests.backends import backend, postgres_server, store  # noqa: E402,F401


def pytest_report_header(config):
    """Which counting core the tests run on (the compiled one, or the Python one and
    why), and whether PostgreSQL can run."""
    from harness import postgres
    from solver.counting import core_report

    why = postgres.missing()
    return [core_report(), why if why else f"postgresql: a throwaway server per test session from {postgres.bindir()}"]


def pytest_terminal_summary(terminalreporter):
    """Where PostgreSQL cannot run, say so at the end, where it is seen."""
    from harness import postgres

    why = postgres.missing()
    if why and not hasattr(terminalreporter.config, "workerinput"):
        terminalreporter.write_line(f"WARNING: {why}", yellow=True, bold=True)
