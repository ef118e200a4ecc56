"""The ``core`` fixture (tests/solver/cores.py): a test that takes it runs on each counting core."""
from tests.solver.cores import core  # noqa: F401
