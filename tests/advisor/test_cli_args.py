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


@pytest.mark.parametrize("argv, message", [
    (["--games", "1000000000000"], "argument --games: must be from 1 to 100,000, not 1000000000000"),
    (["--games", "0"], "argument --games: must be from 1 to 100,000, not 0"),
    (["--jobs", "0"], "argument --jobs: must be from 1 to 64"),
    (["--marshals", "random,random"], "--marshals: random named twice"),
    (["--marshals", ","], "--marshals: name at least one of random, notepad, solver, lookahead"),
    (["--fugitives", "random,sly"], "--fugitives: unknown 'sly'; the bots are"),
    (["--csv", "/nonexistent-dir/t.csv"], "--csv: no folder /nonexistent-dir"),
    (["--png", "t.txt"], "--png: t.txt must end in .png"),
])
def test_tournament_refusals(capsys, argv, message):
    err = refused(capsys, "tournament", *argv)
    assert f"fugitive tournament: error: {message}" in err


def test_tournament_refuses_a_folder_for_its_csv(capsys, tmp_path):
    assert f"--csv: {tmp_path} is a folder" in refused(capsys, "tournament", "--csv", str(tmp_path))


@pytest.mark.parametrize("argv, message", [
    (["--games", "-1"], "argument --games: must be from 1 to 100,000"),
    (["--marshal", "bogus"], "argument --marshal: invalid choice: 'bogus'"),
    (["--fugitives", "random,random"], "--fugitives: random named twice"),
    (["--png", "/nonexistent-dir/c.png"], "--png: no folder /nonexistent-dir"),
])
def test_calibration_refusals(capsys, argv, message):
    err = refused(capsys, "calibration", *argv)
    assert f"fugitive calibration: error: {message}" in err
