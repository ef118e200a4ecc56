"""``fugitive games`` on both databases: ``--db`` and ``$FUGITIVE_DB`` take a SQLite
path or a ``postgresql://`` URL; reading never makes a database; a database that
cannot be reached is one line, never a traceback, and never shows a password."""
from __future__ import annotations

import json

from tests.notepad.records import EXAMPLE
from tests.notepad.test_cli import run


def test_games_commands_on_either_database(backend, tmp_path, capsys):
    db = backend.location()
    where = backend.where(db)
    rec = tmp_path / "r.json"
    rec.write_text(EXAMPLE.to_json())
    code, _, err = run(capsys, "games", "--db", db, "list")  # reading never makes a database
    assert code == 1 and err == f"error: no database at {where} (--db, $FUGITIVE_DB or data/fugitive.sqlite3)\n"
    if backend.name == "postgresql":
        assert backend.tables(db) == []
    code, out, _ = run(capsys, "games", "--db", db, "import", str(rec), "--title", "Friday")  # an import makes it
    assert code == 0 and out.startswith("imported ")
    gid = out.split()[1]
    code, out, _ = run(capsys, "games", "--db", db, "list")
    assert code == 0 and gid in out and "Friday" in out and "9 events" in out
    code, out, _ = run(capsys, "games", "--db", db, "export", gid)
    assert json.loads(out) == EXAMPLE.to_dict()
    assert run(capsys, "games", "--db", db, "rename", gid, "Saturday")[0] == 0
    assert "Saturday" in run(capsys, "games", "--db", db, "list")[1]
    assert run(capsys, "games", "--db", db, "delete", gid)[0] == 0
    code, _, err = run(capsys, "games", "--db", db, "delete", gid)
    assert code == 1 and err == f"error: no game with id {gid!r}\n"


def test_games_read_the_database_of_fugitive_db(backend, tmp_path, capsys, monkeypatch):
    db = backend.location()
    monkeypatch.setenv("FUGITIVE_DB", db)
    rec = tmp_path / "r.json"
    rec.write_text(EXAMPLE.to_json())
    assert run(capsys, "games", "import", str(rec))[0] == 0
    assert "9 events" in run(capsys, "games", "list")[1]


def test_a_database_that_cannot_be_reached_is_one_line(backend, capsys):
    if backend.name == "sqlite":
        garbage = backend.folder / "garbage.sqlite3"
        garbage.write_text("not a database")
        db, expected = str(garbage), f"error: database {garbage}: file is not a database\n"
    else:
        db = backend.server.url("missing").replace("fugitive@", "fugitive:s3cret@")
        expected = None
    code, out, err = run(capsys, "games", "--db", db, "list")
    assert code == 1 and out == "" and err.startswith("error: database ") and err.count("\n") == 1
    if expected:
        assert err == expected
    else:
        assert 'database "missing" does not exist' in err and "s3cret" not in err and "fugitive:***@" in err


def test_a_url_of_another_database_is_refused_by_name(capsys):
    code, out, err = run(capsys, "games", "--db", "mysql://me:pw@localhost/games", "list")
    assert (code, out) == (1, "")
    assert err == ("error: mysql://me:***@localhost/games is neither a SQLite file nor a postgresql:// URL "
                   "(it starts with 'mysql')\n")
