"""Helpers for the app tests: an AppTest on a fresh SQLite store per test; for the
browser tests, a Streamlit server per test module and a phone-sized page."""
from __future__ import annotations

import pathlib
from typing import NamedTuple

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

    def make(owner: str | None = None, **params):
        """The app in a new browser session: a new browser, unless ``owner`` names
        its key (as its cookie would: a game opens only for the person whose list
        holds it; no URL parameter says who a browser is)."""
        at = AppTest.from_file(APP, default_timeout=120)
        if owner is not None:
            at.session_state["online_owner"] = owner
        for k, v in params.items():
            at.query_params[k] = v
        return at.run()

    return make


class Served(NamedTuple):
    """A Streamlit server of the app for one browser test module, and its database."""

    url: str
    db: pathlib.Path


@pytest.fixture(scope="module")
def served(tmp_path_factory, request):
    """The app served on a free port with a SQLite database of its own (made here, so
    the tests can write games into it); skipped with the reason where there is no
    browser."""
    from harness import browser
    from store import GameStore

    why = browser.missing()
    if why:
        pytest.skip(why)
    db = tmp_path_factory.mktemp(request.module.__name__.rpartition(".")[2]) / "games.sqlite3"
    GameStore(db)
    with browser.app_server(db) as url:
        yield Served(url, db)


@pytest.fixture(scope="module")
def server(served):
    return served.url


@pytest.fixture
def page(server):
    from harness import browser

    with browser.phone_page() as p:
        yield p


def with_accounts(request, tmp_path_factory, name: str, database: str = "sqlite"):
    """The app served with a sign-in provider (a real OpenID provider started here,
    ``harness.oidc``) on a database (``database``: sqlite, postgresql): yields (url,
    database, the provider's issuer). For a module fixture; skipped with the reason
    where there is no browser or no provider.

    The browser tests run on SQLite only: the app never asks which database it is on
    (the store does), and the store's seats, links, accounts and lobby are proved on
    both databases by tests/store (the ``store`` fixture); the app served on
    PostgreSQL in a browser is tests/app/test_two_servers.py's, and AppTest's on it
    tests/app/test_store_on_postgres.py's."""
    from harness import browser, oidc
    from store import GameStore

    why = browser.missing() or oidc.missing()
    if why:
        pytest.skip(why)
    folder = tmp_path_factory.mktemp(name)
    if database == "sqlite":
        db = str(folder / "games.sqlite3")
    else:
        db = request.getfixturevalue("postgres_server").new_schema(name)
    GameStore(db).close()
    with oidc.provider() as issuer:
        secrets = oidc.secrets_file(folder, issuer)
        with browser.app_server(db, options=("--secrets.files", str(secrets))) as url:
            yield url, db, issuer


@pytest.fixture(scope="session", autouse=True)
def _chromium_closed_at_the_end():
    """The browser tests share one Chromium per test process (``harness.browser.chromium``,
    a browser context per phone, cleared and kept for a later phone: ``phone_pages``);
    it is closed when the session ends."""
    yield
    from harness import browser

    browser.stop()
