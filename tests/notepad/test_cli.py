"""``fugitive check`` and ``fugitive games``: messages and exit codes, never a traceback."""
from __future__ import annotations

import json

import pytest

from fugitive_cli.main import main
from store import GameStore

from .records import EXAMPLE, FULL, mdraw


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_check_ok(tmp_path, capsys):
    f = tmp_path / "r.json"
    f.write_text(EXAMPLE.to_json())
    code, out, _ = run(capsys, "check", str(f))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "ok"
    assert "Marshal's record: 9 events, 2 placements, 1 face down" in lines[1] and "fugitive to move" in lines[1]
    f.write_text(FULL.to_json())
    code, out, _ = run(capsys, "check", str(f))
    assert code == 0 and "full record" in out and "game over, marshal wins" in out


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "No such file"),
        ("{", "not valid JSON"),
        ("\xff\xfe", "not valid JSON"),
        ('{"format": "fugitive-record", "version": 7, "events": []}', "unsupported version 7"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "teleport"}]}', "event 0: unknown event type"),
        ('{"format": "fugitive-record", "version": 1, "events": [{"type": "place", "sprints": true}]}', "whole number"),
        (EXAMPLE.append(mdraw(17)).to_json(), "event 9: your draw cannot come now"),
        ("[" * 50000, "nested too deeply"),
    ],
)
def test_check_errors(tmp_path, capsys, content, message):
    f = tmp_path / "r.json"
    if content is not None:
        f.write_bytes(content.encode("latin-1") if content.startswith("\xff") else content.encode())
    code, out, err = run(capsys, "check", str(f))
    assert code == 1 and out == ""
    assert message in err and err.startswith("error: ")


def test_check_names_the_file_once_and_reads_standard_input(tmp_path, capsys, monkeypatch):
    import io

    missing = tmp_path / "none.json"
    code, _, err = run(capsys, "check", str(missing))
    assert code == 1 and err.count(str(missing)) == 1 and "No such file" in err
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(EXAMPLE.to_json().encode())))
    code, out, _ = run(capsys, "check", "-")
    assert code == 0 and out.startswith("ok")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"[]")))
    code, _, err = run(capsys, "check", "-")
    assert code == 1 and err == "error: standard input: a record must be a JSON object\n"


def test_games_commands(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    rec = tmp_path / "r.json"
    rec.write_text(EXAMPLE.to_json())
    code, out, err = run(capsys, "games", "--db", db, "list")  # reading never makes a database
    assert code == 1 and err == f"error: no database at {db} (--db, $FUGITIVE_DB or data/fugitive.sqlite3)\n"
    assert not (tmp_path / "g.sqlite3").exists()
    GameStore(db)
    code, out, _ = run(capsys, "games", "--db", db, "list")
    assert code == 0 and out.strip() == "no games"
    code, out, _ = run(capsys, "games", "--db", db, "import", str(rec), "--title", "Friday")
    assert code == 0 and out.startswith("imported ")
    gid = out.split()[1]
    code, out, _ = run(capsys, "games", "--db", db, "list")
    assert gid in out and "Friday" in out and "9 events" in out
    code, out, _ = run(capsys, "games", "--db", db, "export", gid)
    assert json.loads(out) == EXAMPLE.to_dict()
    target = tmp_path / "out.json"
    code, out, _ = run(capsys, "games", "--db", db, "export", gid, "-o", str(target))
    assert code == 0 and json.loads(target.read_text()) == EXAMPLE.to_dict()
    assert run(capsys, "games", "--db", db, "rename", gid, "Saturday")[0] == 0
    assert "Saturday" in run(capsys, "games", "--db", db, "list")[1]
    assert run(capsys, "games", "--db", db, "delete", gid)[0] == 0
    code, _, err = run(capsys, "games", "--db", db, "delete", gid)
    assert code == 1 and "no game with id" in err


def test_games_import_refusals(tmp_path, capsys):
    db = str(tmp_path / "g.sqlite3")
    bad = tmp_path / "bad.json"
    bad.write_text(EXAMPLE.append(mdraw(17)).to_json())
    code, _, err = run(capsys, "games", "--db", db, "import", str(bad))
    assert code == 1 and "event 9" in err
    code, _, err = run(capsys, "games", "--db", db, "import", str(tmp_path / "missing.json"))
    assert code == 1 and "missing.json" in err
    assert run(capsys, "games", "--db", db, "list")[1].strip() == "no games"


def test_games_uses_env_db(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FUGITIVE_DB", str(tmp_path / "env.sqlite3"))
    rec = tmp_path / "r.json"
    rec.write_text(EXAMPLE.to_json())
    assert run(capsys, "games", "import", str(rec))[0] == 0  # an import makes the database
    assert (tmp_path / "env.sqlite3").exists()
    assert "9 events" in run(capsys, "games", "list")[1]


def test_games_refusals_name_what_is_wrong_and_change_nothing(tmp_path, capsys, monkeypatch):
    import io

    db = tmp_path / "g.sqlite3"
    gid = GameStore(db).create(EXAMPLE, title="keep").id
    before = GameStore(db).list()

    def fails(*argv) -> str:
        code, out, err = run(capsys, "games", "--db", str(db), *argv)
        assert code == 1 and out == "" and err.startswith("error: "), (argv, out, err)
        return err

    assert "the id is not valid text" in fails("export", "\udcff")  # argv bytes that are not UTF-8
    assert "the title is not valid text" in fails("rename", gid, "bad\udcff")
    assert "-o: no folder" in fails("export", gid, "-o", str(tmp_path / "no" / "x.json"))
    assert "is a folder" in fails("export", gid, "-o", str(tmp_path))
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert fails("import", str(bad)).startswith(f"error: {bad}: not a valid game record: not valid JSON")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"[]")))
    assert fails("import", "-").startswith("error: standard input: not a valid game record")
    assert GameStore(db).list() == before
    assert "an empty file name" in run(capsys, "games", "--db", "", "list")[2]
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_text("not a database")
    assert run(capsys, "games", "--db", str(garbage), "list")[2] == f"error: database {garbage}: file is not a database\n"
    in_the_way = tmp_path / "file"
    in_the_way.write_text("")
    err = run(capsys, "games", "--db", str(in_the_way / "g.sqlite3"), "import", str(bad))[2]
    assert err == f"error: {in_the_way}: a file is where a folder should be\n"


def test_games_import_from_standard_input_and_an_odd_file_name(tmp_path, capsys, monkeypatch):
    import io
    import os

    db = str(tmp_path / "g.sqlite3")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(EXAMPLE.to_json().encode())))
    code, out, _ = run(capsys, "games", "--db", db, "import", "-")
    assert code == 0 and out.endswith("9 events  Imported game\n")
    odd = os.path.join(os.fsencode(tmp_path), b"caf\xe9.json")  # a Latin-1 name: not UTF-8
    with open(odd, "wb") as fh:
        fh.write(EXAMPLE.to_json().encode())
    code, out, _ = run(capsys, "games", "--db", db, "import", os.fsdecode(odd))
    assert code == 0 and out.endswith("9 events  caf\ufffd\n")


def test_export_replaces_a_file_whole(tmp_path, capsys, monkeypatch):
    db = tmp_path / "g.sqlite3"
    gid = GameStore(db).create(EXAMPLE).id
    target = tmp_path / "out.json"
    target.write_text("the old export")

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", full_disk)
    code, _, err = run(capsys, "games", "--db", str(db), "export", gid, "-o", str(target))
    assert code == 1 and err == f"error: {target}: No space left on device\n"
    assert target.read_text() == "the old export"  # not emptied, not half written
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no temporary file left


def test_export_through_a_link_writes_its_target_and_keeps_its_mode(tmp_path, capsys):
    import os

    db = tmp_path / "g.sqlite3"
    gid = GameStore(db).create(EXAMPLE).id
    real = tmp_path / "real.json"
    real.write_text("old")
    real.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    assert run(capsys, "games", "--db", str(db), "export", gid, "-o", str(link))[0] == 0
    assert link.is_symlink() and json.loads(real.read_text()) == EXAMPLE.to_dict()
    assert os.stat(real).st_mode & 0o777 == 0o600


def test_a_full_disk_while_listing_is_not_a_database_error(tmp_path, capsys, monkeypatch):
    import errno
    import io

    db = tmp_path / "g.sqlite3"
    GameStore(db).create(EXAMPLE)

    class Full(io.StringIO):
        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("fugitive_cli.main._drop_stdout", lambda: None)
    monkeypatch.setattr("sys.stdout", Full())
    code = main(["games", "--db", str(db), "list"])
    err = capsys.readouterr().err
    assert code == 1 and "cannot write the output: No space left on device" in err and str(db) not in err
