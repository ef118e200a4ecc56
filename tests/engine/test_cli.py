"""``fugitive play`` and ``fugitive simulate``."""
from __future__ import annotations

import itertools

import pytest

from fugitive_cli import play as play_cli
from fugitive_cli.main import main
from engine.record import Record, Ruleset


def scripted_reader(answers_for):
    """A read() that answers each prompt from a generator chosen by the prompt."""
    calls = itertools.count()

    def read(prompt: str):
        if next(calls) > 5000:
            return None
        return answers_for(prompt)

    return read


def test_simulate_prints_counts_and_speed(capsys):
    assert main(["simulate", "--games", "50", "--seed", "3", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Fugitive wins:" in out and "Marshal wins:" in out and "games per second" in out
    wins = [int(line.split()[2]) for line in out.splitlines() if line.split()[1:2] == ["wins:"]]
    assert sum(wins) == 50


@pytest.mark.parametrize("games", ["0", "-1", "9223372036854775808", "ten"])
def test_simulate_refuses_a_count_out_of_range_before_playing(capsys, games):
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--games", games])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --games: must be" in err and "10,000,000" in err and "Traceback" not in err


@pytest.mark.parametrize("ruleset", [Ruleset(), Ruleset("two", True)])
def test_a_whole_game_as_the_marshal(ruleset):
    guesses = itertools.cycle(range(1, 42))
    decks = itertools.cycle("123")
    lines = []

    def answer(prompt):
        if "deck" in prompt:
            return next(decks)
        return str(next(guesses))

    state = play_cli.play("marshal", 11, ruleset, scripted_reader(answer), lines.append)
    assert state.is_over and any("Game over" in line for line in lines)
    assert Record.from_json(state.record().to_json()) == state.record()


def test_a_whole_game_as_the_fugitive_with_bad_input():
    lines = []
    answers = itertools.cycle(["", "x", "9 9", "1", "2", "3", "pass", "y", "4 1", "12 1 2 3"])

    state = play_cli.play("fugitive", 5, Ruleset("one-or-two", True), scripted_reader(lambda p: next(answers)), lines.append)
    assert state.is_over
    assert any(line.startswith("Sorry:") for line in lines)
    assert any(line.startswith("Not allowed:") for line in lines)


def test_end_of_input_quits_cleanly(monkeypatch, capsys):
    def eof(prompt=""):
        raise EOFError

    monkeypatch.setattr("builtins.input", eof)
    assert main(["play", "--seed", "1"]) == 0
    assert "Bye." in capsys.readouterr().out


def test_quit_command_and_save(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert main(["play", "--role", "fugitive", "--seed", "2", "--ruleset-two", "--pass-draw"]) == 0
    assert "opening two" in capsys.readouterr().out
    # a finished game can be saved as a full record
    guesses = itertools.cycle([str(n) for n in range(1, 42)])
    decks = itertools.cycle("123")  # an empty deck is refused: the next answer tries another
    path = tmp_path / "game.json"

    def answer(prompt=""):
        return next(decks) if "deck" in prompt else next(guesses)

    monkeypatch.setattr("builtins.input", answer)
    assert main(["play", "--seed", "4", "--save", str(path)]) == 0
    rec = Record.from_json(path.read_text())
    assert rec.is_full and rec.events


def test_parse_numbers():
    assert play_cli.parse_numbers("12, 5 +7") == [12, 5, 7]
    with pytest.raises(ValueError, match="not a number"):
        play_cli.parse_numbers("12 abc")
    with pytest.raises(ValueError, match="not a number"):
        play_cli.parse_numbers("5 ²")
    with pytest.raises(ValueError):
        play_cli.parse_numbers("  ")
    for text in ("1_0", "\u0663", "-3"):  # int() takes the first two
        with pytest.raises(ValueError, match="not a number"):
            play_cli.parse_numbers(text)
    assert play_cli.parse_numbers("9" * 5000) == [10**6]  # no traceback; the game refuses it


def test_save_is_checked_before_the_game_and_a_quit_game_is_saved(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail("the game started"))
    assert main(["play", "--seed", "4", "--save", str(tmp_path / "no" / "g.json")]) == 2
    assert "--save: no folder" in capsys.readouterr().err
    assert main(["play", "--seed", "4", "--save", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    answers = iter(["1", "2", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "g.json"
    assert main(["play", "--role", "fugitive", "--seed", "4", "--save", str(path)]) == 0
    assert "The game so far written to" in capsys.readouterr().out
    rec = Record.from_json(path.read_text())
    assert rec.is_full and [e.type for e in rec.events[:2]] == ["place", "place"]


def test_a_full_disk_on_standard_output_is_an_error_message(monkeypatch, capsys, tmp_path):
    import errno
    import io

    class Full(io.StringIO):
        def flush(self):
            raise OSError(errno.ENOSPC, "No space left on device")

    dropped = []
    monkeypatch.setattr("fugitive_cli.main._drop_stdout", lambda: dropped.append(True))
    monkeypatch.setattr("sys.stdout", Full())
    assert main(["simulate", "--games", "1", "--no-progress"]) == 1
    assert dropped
    assert "error: cannot write the output: No space left on device" in capsys.readouterr().err
