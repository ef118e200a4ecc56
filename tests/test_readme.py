"""The README's Python examples are tests (as python-chess does): the front door a
newcomer reads must work as written."""
from __future__ import annotations

import doctest
import pathlib

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_examples_run_as_written():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10, "the README's examples were not found"
    assert result.failed == 0
