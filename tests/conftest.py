"""Settings for every test.

Hypothesis runs derandomized under ``make test`` and in CI (``HYPOTHESIS_PROFILE=ci``:
the same examples every run, so a red CI is a change in the code, not a new draw);
``make test-fast`` and a plain ``pytest`` use the ``dev`` profile, which draws new
examples each run and so keeps looking for what the fixed ones miss.
"""
from __future__ import annotations

import os
import re

import pytest
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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """For ``pytest -n 2 --dist loadgroup`` (``make test``): each browser test module is
    one unit of work (an xdist group), so its app server starts once, on one worker;
    xdist hands out the groups first, the largest first, then single tests in this
    order: the long ones (``slow``) before the quick ones, so that neither worker is
    left alone with a long test at the end."""
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
    items.sort(key=lambda item: 0 if item.get_closest_marker("browser") else 1 if item.get_closest_marker("slow") else 2)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: pytest without xdist (-p no:xdist) knows no such hook
def pytest_xdist_node_collection_finished(node, ids):
    """Under ``--dist loadgroup`` each worker writes a grouped test's group into its node
    id, and the scheduler keeps a group on one worker by it. A pytest whose node ids no
    longer take it (9.2 with pytest-xdist 3.8: pytest-xdist issue 1386) would spread
    every browser module over both workers, each starting its own app server (and two
    lobbies' one-second checks at once), and nothing would say so: this says so, in the
    controller, and stops the run."""
    if node.config.getvalue("dist") != "loadgroup":
        return
    # (the controller has the workers' node ids, not their marks: the browser tests' files)
    browser = [i for i in ids if re.match(r"test_browser|test_two_servers", i.split("::")[0].rsplit("/", 1)[-1])]
    lost = [i for i in browser if "@" not in i.rpartition("]")[2].rpartition("::")[2]]
    if lost:
        pytest.exit(f"--dist loadgroup does not group the browser tests here: {len(lost)} of {len(browser)} have no "
                    f"group in their node id (first: {lost[0]}); pytest and pytest-xdist do not agree (pyproject.toml "
                    "pins pytest below 9.2 for this)", returncode=3)
