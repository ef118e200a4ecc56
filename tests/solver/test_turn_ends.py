"""The turn ends of record version 2 (``end_opening``, ``decline_draw``) are public and
tell the Marshal nothing her next event does not: the solver and ``fugitive solve``
give a record the same figures with them and without them (docs/record.md)."""
from __future__ import annotations

import json

import pytest

from engine import apply, fugitive_view, marshal_view, new_game
from engine.bots import RandomFugitive, RandomMarshal
from engine.record import TURN_ENDS, Record
from fugitive_cli.main import main
from solver.exact import solve


def without_turn_ends(record: Record) -> Record:
    return Record(tuple(e for e in record.events if e.type not in TURN_ENDS), record.ruleset, record.fugitive_setup)


def games_with_turn_ends(seeds=range(40), cut: int = 24):
    """Random games (half with the extra draw), cut after ``cut`` events, that hold at
    least one turn end."""
    from engine.record import Ruleset

    for seed in seeds:
        state = new_game(seed, Ruleset("one-or-two", seed % 2 == 1))
        fb, mb = RandomFugitive(seed), RandomMarshal(seed)
        while not state.is_over and len(state.events) < cut:
            view = fugitive_view(state) if state.current_player == "fugitive" else marshal_view(state)
            state = apply(state, (fb if state.current_player == "fugitive" else mb).choose(view))
        if any(e.type in TURN_ENDS for e in state.events):
            yield seed, state


def test_there_are_games_with_both_turn_ends():
    kinds = {e.type for _, s in games_with_turn_ends() for e in s.events if e.type in TURN_ENDS}
    assert kinds == set(TURN_ENDS)


@pytest.mark.parametrize("seed,state", list(games_with_turn_ends()), ids=lambda x: str(x) if isinstance(x, int) else "")
def test_the_same_figures_with_and_without_the_turn_ends(seed, state):
    record = state.marshal_record()
    for cut in range(1, len(record.events) + 1):  # every prefix, those ending with a turn end too
        part = record.truncated(cut)
        with_them, without = solve(part), solve(without_turn_ends(part))
        assert with_them.histories == without.histories and with_them.number_counts == without.number_counts
        assert with_them.to_dict() == without.to_dict()
    # the full record (the solver reads its Marshal's view) too
    assert solve(state.record()).to_dict() == solve(without_turn_ends(state.record())).to_dict()


def test_fugitive_solve_prints_the_same_with_and_without_the_turn_ends(tmp_path, capsys):
    seed, state = next(iter(games_with_turn_ends()))
    outputs = []
    v1 = dict(state.record().to_dict(), version=1, events=[e for e in state.record().to_dict()["events"]
                                                            if e["type"] not in TURN_ENDS])
    for name, text in (("v2", state.record().to_json()), ("v1", json.dumps(v1))):  # as each version writes it
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        code = main(["solve", str(path), "--json"])
        outputs.append((code, json.loads(capsys.readouterr().out)))
    assert outputs[0] == outputs[1] and outputs[0][0] == 0
