"""The IS-MCTS research bots (advisor.ismcts): complete games against our bots, in the
tournament by name, with exact resampling at every simulation."""
from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install -e '.[research]'")

from advisor.bots import NotepadMarshal, SolverMarshal  # noqa: E402
from advisor.ismcts import ISMCTSFugitive, ISMCTSMarshal, simulations_of  # noqa: E402
from advisor.tournament import run_tournament  # noqa: E402
from engine.bots import RandomFugitive, play_game  # noqa: E402
from notepad.validator import validate  # noqa: E402


@pytest.mark.parametrize("seed, marshal", [(0, NotepadMarshal), (1, SolverMarshal)])
def test_the_ismcts_fugitive_plays_complete_games_against_our_marshals(seed, marshal):
    state = play_game(ISMCTSFugitive(seed, 8), marshal(seed), seed=seed)
    assert state.winner in ("fugitive", "marshal")
    validate(state.record())


@pytest.mark.slow
def test_the_ismcts_marshal_plays_a_complete_game():
    state = play_game(RandomFugitive(2), ISMCTSMarshal(2, 4), seed=2)
    assert state.winner in ("fugitive", "marshal")
    validate(state.record())


def test_the_budget_is_in_the_name():
    assert simulations_of("ismcts") == 100 and simulations_of("ismcts-7") == 7
    for bad in ("ismcts-", "ismcts-0", "ismcts-x", "mcts-5"):
        with pytest.raises(ValueError, match="ismcts-N"):
            simulations_of(bad)


def test_the_tournament_plays_it_by_name_and_the_same_seed_gives_the_same_game():
    a = run_tournament(2, seed=3, jobs=1, marshals=["notepad"], fugitives=["ismcts-5"], progress=False)
    b = run_tournament(2, seed=3, jobs=1, marshals=["notepad"], fugitives=["ismcts-5"], progress=False)
    assert a[0].games == 2 and (a[0].marshal_wins, a[0].manhunts) == (b[0].marshal_wins, b[0].manhunts)
