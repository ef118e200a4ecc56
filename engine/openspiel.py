"""Fugitive as an OpenSpiel game: ``import engine.openspiel`` registers ``python_fugitive``.

::

    import pyspiel
    import engine.openspiel  # registers the game
    game = pyspiel.load_game("python_fugitive", {"opening": "two", "pass_draw": True})
    state = game.new_initial_state()
    while not state.is_terminal():
        ...                   # chance nodes: state.chance_outcomes(); players: state.legal_actions()
    state.returns()           # [+1, -1] when the Fugitive (player 0) won, [-1, +1] when the Marshal did
    state.record()            # the engine's full Record of the game (docs/record.md)

Game parameters: ``opening`` ("one-or-two" | "two") and ``pass_draw`` (bool), the
ruleset options of docs/rules.md, and ``max_turns`` (default 200): the game is cut, with
returns 0 and 0, after the Marshal's ``max_turns``-th guess if it has not ended (the
rules do not bound a game; OpenSpiel needs a longest one).

Player 0 is the Fugitive, player 1 the Marshal. The action encoding (170 ids: a
placement is its sprint cards in ascending order then the hideout, a guess its
numbers in ascending order), the chance nodes (every draw, with probability 1 / the
cards left in that deck) and the layout of the information-state and observation
tensors are those of :mod:`engine.encoding`, where they are documented; the
strings and tensors of each player are built from ``engine.marshal_view`` /
``engine.fugitive_view``, so they hold exactly what that player knows.

A state holds one immutable :class:`engine.encoding.Node` (the engine's GameState
and the unfinished choice of sub-actions): OpenSpiel's clone deep-copies the
state's attributes, and a node deep-copies as a reference, so a clone costs a new
Python object and nothing else. Serialization (OpenSpiel pickles the attributes)
round-trips. A state can be rebuilt from a full record (:func:`state_from_record`):
the undrawn cards of a node are kept in ascending order, so the record alone fixes it.

``resample_from_infostate(player, sampler)`` draws the other player's hidden state
exactly (:func:`resample`): for the Marshal, a hidden history of her record with its
probability under docs/model.md (``solver.sample``); for the Fugitive, the Marshal's
cards (uniform over the cards of her decks he never held). The new state is
rebuilt from the sampled full record, then the actions the record does not write are
applied again (ending a one-hideout opening, declining a bonus draw, a draw whose card
is still to come, the asking player's unfinished sub-actions). This is the one place
the engine reaches above itself: it imports :mod:`solver` inside the function, never
at import time (``import engine.openspiel`` loads no solver). OpenSpiel's C++
``pyspiel.ISMCTSBot`` cannot call a Python game's resampling; IS-MCTS runs through
``open_spiel.python.algorithms.ismcts`` (``advisor.ismcts``).
"""
from __future__ import annotations

import random
from typing import Any, cast

import pyspiel

from . import encoding as enc
from .record import OPENINGS, Opening, Record, Ruleset
from .state import GameState

assert pyspiel.PlayerId.CHANCE == enc.CHANCE and pyspiel.PlayerId.TERMINAL == enc.TERMINAL

GAME_NAME = "python_fugitive"
DEFAULT_PARAMETERS = {"opening": "one-or-two", "pass_draw": False, "max_turns": enc.DEFAULT_MAX_TURNS}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Fugitive (Fowers Games)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMETERS,
)


def _ruleset(params: dict[str, Any]) -> tuple[Ruleset, int]:
    unknown = sorted(set(params) - set(DEFAULT_PARAMETERS))
    if unknown:
        raise ValueError(f"{GAME_NAME} has no parameter {unknown[0]!r} (it has {', '.join(DEFAULT_PARAMETERS)})")
    opening = params.get("opening", DEFAULT_PARAMETERS["opening"])
    pass_draw = params.get("pass_draw", DEFAULT_PARAMETERS["pass_draw"])
    max_turns = params.get("max_turns", DEFAULT_PARAMETERS["max_turns"])
    if opening not in OPENINGS:
        raise ValueError(f'opening must be "one-or-two" or "two", not {opening!r}')
    if not isinstance(pass_draw, bool):
        raise ValueError(f"pass_draw must be true or false, not {pass_draw!r}")
    if not isinstance(max_turns, int) or isinstance(max_turns, bool) or not 1 <= max_turns <= enc.MAX_TURNS_LIMIT:
        raise ValueError(f"max_turns must be a whole number from 1 to {enc.MAX_TURNS_LIMIT}, not {max_turns!r}")
    return Ruleset(cast(Opening, opening), pass_draw), max_turns


class FugitiveGame(pyspiel.Game):
    """The game; ``ruleset`` and ``max_turns`` come from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**DEFAULT_PARAMETERS, **(params or {})}
        self.ruleset, self.max_turns = _ruleset(params)
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.NUM_ACTIONS,
            max_chance_outcomes=enc.MAX_CHANCE_OUTCOMES,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=enc.max_game_length(self.max_turns),
        )
        super().__init__(GAME_TYPE, info, params)
        self._root = enc.root(self.ruleset, self.max_turns)

    def new_initial_state(self) -> "FugitiveState":
        return FugitiveState(self)

    def max_chance_nodes_in_history(self) -> int:
        return enc.MAX_CHANCE_NODES

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> "SpielObserver":
        """OpenSpiel's observer factory: None is the default observation (no recall,
        public and the player's own private information)."""
        if params:
            raise ValueError(f"{GAME_NAME} observers take no parameters, not {params!r}")
        if iig_obs_type is None:
            return SpielObserver(max_turns=self.max_turns)
        private = {
            pyspiel.PrivateInfoType.NONE: "none",
            pyspiel.PrivateInfoType.SINGLE_PLAYER: "single",
            pyspiel.PrivateInfoType.ALL_PLAYERS: "all",
        }[iig_obs_type.private_info]
        return SpielObserver(
            max_turns=self.max_turns, perfect_recall=iig_obs_type.perfect_recall,
            public=iig_obs_type.public_info, private=private,
        )


class FugitiveState(pyspiel.State):
    """One state of a game; everything lives in the immutable ``node``."""

    def __init__(self, game: FugitiveGame):
        super().__init__(game)
        self._node = game._root
        self._player = enc.CHANCE  # current_player(node), asked many times per action

    # -- what OpenSpiel calls
    def current_player(self) -> int:
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        return enc.legal_actions(self._node)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return enc.chance_outcomes(self._node)

    def _apply_action(self, action: int) -> None:
        self._node = node = enc.apply(self._node, action)
        self._player = enc.current_player(node)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return enc.chance_name(action)
        return enc.action_name(action)

    def is_terminal(self) -> bool:
        return self._player == enc.TERMINAL

    def returns(self) -> list[float]:
        return list(enc.returns(self._node))

    def __str__(self) -> str:
        return enc.referee_text(self._node)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> "FugitiveState":
        """A state drawn from ``player_id``'s information state with its exact
        probability (see :func:`resample`). ``probability_sampler`` is OpenSpiel's
        (a callable giving a float in [0, 1): it seeds the draw), a
        ``random.Random``, or None (a fresh generator)."""
        if isinstance(probability_sampler, random.Random):
            rng = probability_sampler
        elif probability_sampler is None:
            rng = random.Random()
        else:
            rng = random.Random(int(probability_sampler() * (1 << 53)))
        return resample(self, player_id, rng)

    # -- the engine's side of the state
    @property
    def node(self) -> enc.Node:
        """The node (immutable): the engine state and any unfinished sub-action choice."""
        return self._node

    def engine_state(self) -> GameState | None:
        """The engine's GameState (None until the setup has been dealt). Holds hidden
        cards: a referee's object, never a player's."""
        return self._node.game

    def record(self) -> Record:
        """The full record of the game so far (with the Fugitive's hidden fields)."""
        return enc.record(self._node)

    def marshal_record(self) -> Record:
        return enc.record(self._node).marshal_view()


class SpielObserver(enc.Observer):
    """:class:`engine.encoding.Observer` reading a :class:`FugitiveState`."""

    # OpenSpiel hands a Python observer its own state: the node is read from it
    def set_from(self, state: FugitiveState, player: int) -> None:  # type: ignore[override]
        super().set_from(state._node, player)

    def string_from(self, state: FugitiveState, player: int) -> str:  # type: ignore[override]
        return super().string_from(state._node, player)


def state_from_record(game: FugitiveGame, record: Record) -> FugitiveState:
    """The state at the end of a full record, its OpenSpiel history included (the
    record's deal and draws become the chance outcomes)."""
    if game.ruleset != record.ruleset:
        raise ValueError(f"the record's ruleset {record.ruleset} is not the game's {game.ruleset}")
    state = game.new_initial_state()
    for action in enc.actions_for_record(record):
        state.apply_action(action)
    return state


def resample(state: FugitiveState, player: int, rng: random.Random) -> FugitiveState:
    """A state that ``player`` cannot tell from ``state`` (the same information state
    string), drawn with its exact probability given what ``player`` knows.

    The Marshal (1): a hidden history of her record drawn by ``solver.sample`` (the
    exact measure of docs/model.md). The Fugitive (0): the Marshal's cards drawn by
    ``solver.sample_marshal_hand`` (uniform over the cards of her decks he never
    held). During the deal the Marshal has seen nothing: the dealt cards are dealt
    again. An unfinished choice of sub-actions of the *other* player (a choice is
    private until complete, and how it began depends on that player's policy, which
    no measure here models) is dropped: the sampled state starts that choice afresh.
    IS-MCTS only ever asks for the player to act, whose own choice is kept.
    """
    import solver  # lazily: the engine never imports the solver at import time

    if player not in (enc.FUGITIVE, enc.MARSHAL):
        raise ValueError(f"player must be 0 (the Fugitive) or 1 (the Marshal), not {player!r}")
    game: FugitiveGame = state.get_game()
    node = state.node
    history = state.history()
    if node.game is None:  # the deal: the Fugitive knows his cards, the Marshal nothing
        if player == enc.FUGITIVE:
            return cast(FugitiveState, state.clone())
        out = game.new_initial_state()
        for _ in node.dealt:
            cards = [c for c, _ in out.chance_outcomes()]
            out.apply_action(cards[rng.randrange(len(cards))])
        return out
    full = state.record()
    if player == enc.MARSHAL:
        sampled = _history_sampler(full.marshal_view()).record(rng)
    else:
        sampled = solver.sample_marshal_hand(full, rng)
    out = state_from_record(game, sampled)
    tail = history[len(out.history()):]
    if node.chosen and enc._selection_owner(node) != player:
        tail = tail[: len(tail) - len(node.chosen)]
    for action in tail:
        out.apply_action(action)
    return out


_SAMPLERS: dict[tuple[object, ...], Any] = {}  # Record.key -> solver.HistorySampler


def _history_sampler(public: Record) -> Any:
    """The solver's sampler of a Marshal's record, kept for the few records asked last:
    IS-MCTS resamples the same root once per simulation."""
    import solver

    key = public.key
    got = _SAMPLERS.get(key)
    if got is None:
        if len(_SAMPLERS) >= 8:
            _SAMPLERS.pop(next(iter(_SAMPLERS)))
        got = _SAMPLERS[key] = solver.HistorySampler(public)
    return got


def random_game(game: FugitiveGame, rng: random.Random) -> FugitiveState:
    """One game through pyspiel's API with uniformly random players and true chance
    (the chance outcomes of this game are equally likely): a benchmark and test helper."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
    return state


pyspiel.register_game(GAME_TYPE, FugitiveGame)
