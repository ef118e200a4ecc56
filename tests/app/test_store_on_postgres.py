"""The app on PostgreSQL: ``FUGITIVE_DB`` a ``postgresql://`` URL (a throwaway server,
tests/backends.py). The pages work on it as on SQLite; a database that cannot be
reached is one message naming it, never its password, and never a traceback."""
from __future__ import annotations

import pytest

from store import GameStore

from .helpers import no_exception


@pytest.fixture
def pg_db(postgres_server, monkeypatch) -> str:
    url = postgres_server.new_schema("app")
    monkeypatch.setenv("FUGITIVE_DB", url)
    return url


def test_the_assistant_saves_to_postgresql(make_app, pg_db):
    at = make_app(page="assistant")
    no_exception(at)
    at.button(key="new_start").click().run()
    no_exception(at)
    gid = at.query_params["game"][0] if isinstance(at.query_params["game"], list) else at.query_params["game"]
    with GameStore(pg_db) as store:
        assert store.open(gid).info.kind == "assistant"
        assert [g.id for g in store.list()] == [gid]


@pytest.mark.parametrize("make_url, said", [
    (lambda s: s.url("no_such_database").replace("fugitive@", "fugitive:s3cret@"), 'database "no_such_database" does not exist'),
    (lambda s: "mysql://me:s3cret@localhost/games", "neither a SQLite file nor a postgresql:// URL"),
])
def test_a_database_that_cannot_be_used_is_one_message(make_app, postgres_server, monkeypatch, make_url, said):
    monkeypatch.setenv("FUGITIVE_DB", make_url(postgres_server))
    at = make_app()
    no_exception(at)
    [error] = [e.value for e in at.error]
    assert "cannot be used" in error and said in error and "s3cret" not in error and "***" in error


def test_a_server_that_stops_under_a_running_app_is_one_message(make_app, monkeypatch):
    from harness import postgres

    with postgres.throwaway_server() as server:
        url = server.new_database()
        monkeypatch.setenv("FUGITIVE_DB", url)
        at = make_app(page="assistant")
        no_exception(at)
        at.button(key="new_start").click().run()
        no_exception(at)
        server.run("pg_ctl", "-D", str(server.data), "-m", "fast", "-w", "stop", capture_output=True)
        for page in ("assistant", "match", "learning"):
            at = make_app(page=page)
            no_exception(at)
            assert [e.value for e in at.error if "cannot be used" in e.value], page
        server.run("pg_ctl", "-D", str(server.data), "-l", str(server.log), "-w", "start", capture_output=True)
        at = make_app(page="assistant")
        no_exception(at)
        assert not [e.value for e in at.error if "cannot be used" in e.value]
