"""``fugitive tournament`` and ``fugitive calibration`` refuse bad arguments before
any game is played (a long run must not fail at its end on a bad output path)."""
from __future__ import annotations

import pytest

from fugitive_cli.main import main


@pytest.fixture(autouse=True)
def no_runs(monkeypatch):
    def refuse(*args, **kwargs):
        pytest.fail("a run started")

    monkeypatch.setattr("advisor.tournament.run_tournament", refuse)
    monkeypatch.setattr("advisor.calibration.run_calibration", refuse)


def refused(capsys, *argv) -> str:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and "Traceback" not in captured.err, captured
    return captured.err


@pytest.mark.parametrize("command, argv, message", [
    ("tournament", ["--games", "1000000000000"], "argument --games: must be from 1 to 100,000, not 1000000000000"),
    ("tournament", ["--marshals", "ismcts-x"], "not an IS-MCTS bot name: 'ismcts-x'"),
    ("tournament", ["--games", "0"], "argument --games: must be from 1 to 100,000, not 0"),
    ("tournament", ["--jobs", "0"], "argument --jobs: must be from 1 to 64"),
    ("tournament", ["--marshals", "random,random"], "--marshals: random named twice"),
    ("tournament", ["--marshals", ","], "--marshals: name at least one of random, notepad, solver, lookahead"),
    ("tournament", ["--fugitives", "random,sly"], "--fugitives: unknown 'sly'; the bots are"),
    ("tournament", ["--csv", "/nonexistent-dir/t.csv"], "--csv: no folder /nonexistent-dir"),
    ("tournament", ["--png", "t.txt"], "--png: t.txt must end in .png"),
    ("calibration", ["--games", "-1"], "argument --games: must be from 1 to 100,000"),
    ("calibration", ["--marshal", "bogus"], "argument --marshal: invalid choice: 'bogus'"),
    ("calibration", ["--fugitives", "random,random"], "--fugitives: random named twice"),
    ("calibration", ["--png", "/nonexistent-dir/c.png"], "--png: no folder /nonexistent-dir"),
    ("tournament", ["--search-samples", "0"], "argument --search-samples: must be from 1 to 1,000"),
    ("tournament", ["--search-seconds", "0"], "argument --search-seconds: must be more than 0 and at most 3600"),
    ("tournament", ["--search-seconds", "nan"], "argument --search-seconds: must be more than 0"),
    ("calibration", ["--search-seconds", "soon"], "argument --search-seconds: must be a number of seconds, not 'soon'"),
])
def test_refusals_before_any_game(capsys, command, argv, message):
    assert f"fugitive {command}: error: {message}" in refused(capsys, command, *argv)


def test_tournament_refuses_a_folder_for_its_csv(capsys, tmp_path):
    assert f"--csv: {tmp_path} is a folder" in refused(capsys, "tournament", "--csv", str(tmp_path))


def test_a_trailing_comma_in_a_bot_list_is_read_past():
    from advisor.bots import MARSHAL_BOTS
    from fugitive_cli.args import names

    assert names("random, notepad,", MARSHAL_BOTS, "--marshals") == ["random", "notepad"]


def test_a_device_is_a_writable_output_file(monkeypatch):
    from fugitive_cli import args

    writable = {"/dev/null"}
    monkeypatch.setattr(args.os, "access", lambda path, mode: str(path) in writable)  # /dev itself is not
    assert args.output_file("/dev/null", "-o") is None
    assert args.output_file("/dev/new.json", "-o") == "-o: cannot write /dev/new.json"


def test_the_search_budget_reaches_the_runs(monkeypatch, capsys, tmp_path):
    from advisor.search import Budget

    got = {}

    from advisor.tournament import Tournament

    def fake(games, seed, jobs, marshals, fugitives, progress=True, budget=None, log=None, ray_address=None):
        got["budget"], got["log"], got["ray"] = budget, log, ray_address
        return Tournament()

    monkeypatch.setattr("advisor.tournament.run_tournament", fake)
    monkeypatch.setattr("advisor.tournament.table", lambda results: "")
    monkeypatch.setattr("advisor.tournament.openings_table", lambda results: "")
    assert main(["tournament", "--fugitives", "search", "--search-samples", "3", "--search-seconds", "2.5"]) == 0
    assert got["budget"] == Budget(3, 2.5)
    assert got["log"] is None and got["ray"] is None
    log = tmp_path / "games.jsonl"
    assert main(["tournament", "--fugitives", "search", "--log", str(log)]) == 0
    assert got["log"] == str(log)
    assert main(["tournament", "--log", str(tmp_path / "no-such-folder" / "g.jsonl")]) == 2
    assert "--log" in capsys.readouterr().err
