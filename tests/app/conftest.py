"""Helpers for the app tests: an AppTest on a fresh SQLite store per test."""
from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
APP = str(ROOT / "streamlit_app.py")


@pytest.fixture
def db(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv("FUGITIVE_DB", str(path))
    return path


@pytest.fixture
def make_app(db):
    from streamlit.testing.v1 import AppTest

    def make(**params):
        at = AppTest.from_file(APP, default_timeout=120)
        for k, v in params.items():
            at.query_params[k] = v
        return at.run()

    return make
