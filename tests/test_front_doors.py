"""Each package hands out its public API, and no module hides a function of the same
name (``import solver; solver.solve(record)`` must be the function)."""
from __future__ import annotations

import importlib
import pkgutil
import types

import pytest

FRONT_DOORS = {
    "engine": ["new_game", "apply", "legal_moves", "load_record", "marshal_view", "fugitive_view", "replay", "Record"],
    "notepad": ["Notepad", "validate"],
    "solver": ["solve", "Posterior", "count_histories"],
    "advisor": ["advise_guesses", "advise_draw", "plan_manhunt"],
    "store": ["GameStore", "StoreError", "parse_import", "configured_location"],
}


@pytest.mark.parametrize("package", sorted(FRONT_DOORS))
def test_the_front_door_hands_out_functions_and_types_not_modules(package):
    pkg = importlib.import_module(package)
    for name in FRONT_DOORS[package]:
        obj = getattr(pkg, name)
        assert not isinstance(obj, types.ModuleType), f"{package}.{name} is a module"
        assert callable(obj), f"{package}.{name}"
    for name in getattr(pkg, "__all__", ()):
        assert hasattr(pkg, name), f"{package}.__all__ names {name}, which it does not have"


@pytest.mark.parametrize("package", sorted(FRONT_DOORS))
def test_no_module_shares_a_name_with_its_packages_api(package):
    pkg = importlib.import_module(package)
    modules = {m.name for m in pkgutil.iter_modules(pkg.__path__)}
    clash = modules & set(getattr(pkg, "__all__", ()))
    assert not clash, f"{package}: modules named like its functions: {sorted(clash)}"
