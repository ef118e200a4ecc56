"""Fugitive as a PettingZoo AEC environment: ``engine.pettingzoo.env()``.

::

    from engine import pettingzoo as fugitive_pz
    env = fugitive_pz.env(render_mode="ansi")          # opening=, pass_draw=, max_turns=, observation=
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
    env.unwrapped.record()                              # the engine's full Record of the game

Agents: ``"fugitive"`` and ``"marshal"``; the Fugitive acts first, and a player
acts several times in a row when its move takes several sub-actions. Actions are
the 170 ids of :mod:`engine.encoding` (a placement is its sprint cards in ascending
order then the hideout; a guess its numbers in ascending order, the last one
making it); ``obs["action_mask"]`` marks the legal ones (all zero for the agent not
to act). ``obs["observation"]`` is what that agent knows and nothing else: by default
its information state (the table, its own cards and the whole public history, a
fixed-size float32 vector); ``observation="observation"`` gives the table and the
last guess only. The layout is :class:`engine.encoding.Observer`'s, the same
tensors as OpenSpiel's ``python_fugitive``.

Chance (the deal and every draw) is resolved inside the environment with its own
generator, seeded by ``reset(seed=...)``. A finished game rewards +1 to the winner
and -1 to the loser; a game that reaches ``max_turns`` guesses of the Marshal is
truncated with rewards 0 (the rules do not bound a game).

``render_mode="ansi"``: ``render()`` returns the table as text; by default the
referee's view with both hands (``render_as="fugitive"`` or ``"marshal"`` shows one
player's view only). ``env()`` wraps the raw environment as PettingZoo's classic
games do (an illegal action ends the game with -1 to the offender; stepping before
``reset`` is an error); ``raw_env`` raises :class:`engine.encoding.IllegalAction`
with the reason instead.
"""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import encoding as enc
from .record import OPENINGS, Record, Ruleset

AGENTS = ("fugitive", "marshal")
OBSERVATIONS = ("information_state", "observation")
RENDER_VIEWS = ("referee", "fugitive", "marshal")
NAME = "fugitive_v0"
RENDER_MODES = ("ansi",)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (see the module docstring)."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's name for the unwrapped class)
    """The unwrapped environment (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": NAME, "is_parallelizable": False}

    def __init__(
        self,
        opening: str = "one-or-two",
        pass_draw: bool = False,
        max_turns: int = enc.DEFAULT_MAX_TURNS,
        observation: str = "information_state",
        render_mode: str | None = None,
        render_as: str = "referee",
    ):
        super().__init__()
        if opening not in OPENINGS:
            raise ValueError(f'opening must be "one-or-two" or "two", not {opening!r}')
        if not isinstance(pass_draw, bool):
            raise ValueError(f"pass_draw must be True or False, not {pass_draw!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation must be one of {OBSERVATIONS}, not {observation!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f'render_mode must be "ansi" or None, not {render_mode!r}')
        if render_as not in RENDER_VIEWS:
            raise ValueError(f"render_as must be one of {RENDER_VIEWS}, not {render_as!r}")
        self._root = enc.root(Ruleset(opening, pass_draw), max_turns)  # checks max_turns
        self.render_mode = render_mode
        self.render_as = render_as
        self.observation_kind = observation
        self._observer = enc.Observer(max_turns=max_turns, perfect_recall=observation == "information_state")
        size = self._observer.tensor.size
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (enc.NUM_ACTIONS,), np.int8),
            })
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(enc.NUM_ACTIONS) for a in AGENTS}
        self.node = self._root
        self.np_random, _ = seeding.np_random(None)

    # -- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the AEC cycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.node = self._chance(self._root)
        self.agent_selection = AGENTS[enc.current_player(self.node)]

    def _chance(self, node: enc.Node) -> enc.Node:
        """Resolve chance nodes with the environment's generator (every chance node
        of this game is uniform over the cards left in a deck)."""
        while enc.current_player(node) == enc.CHANCE:
            outcomes = enc.chance_outcomes(node)
            node = enc.apply(node, outcomes[int(self.np_random.integers(len(outcomes)))][0])
        return node

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise enc.IllegalAction(f"{agent} must act: None is only for an agent whose game is over")
        self.node = node = self._chance(enc.apply(self.node, action))  # an illegal action changes nothing
        self._cumulative_rewards[agent] = 0.0
        player = enc.current_player(node)
        if player == enc.TERMINAL:
            fugitive, marshal = enc.returns(node)
            self.rewards = {"fugitive": fugitive, "marshal": marshal}
            if node.cut:
                self.truncations = {a: True for a in self.agents}
            else:
                self.terminations = {a: True for a in self.agents}
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = AGENTS[player]
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = AGENTS.index(agent)
        self._observer.set_from(self.node, player)
        mask = np.zeros(enc.NUM_ACTIONS, np.int8)
        if enc.current_player(self.node) == player:
            mask[enc.legal_actions(self.node)] = 1
        return {"observation": self._observer.tensor.copy(), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (this environment has \"ansi\")")
            return None
        if self.render_as == "referee":
            return enc.referee_text(self.node)
        player = AGENTS.index(self.render_as)
        return enc.Observer(max_turns=1, perfect_recall=True).string_from(self.node, player)

    def close(self) -> None:
        pass

    # -- the engine's side
    def record(self) -> Record:
        """The full record of the game so far (docs/record.md, with the hidden fields)."""
        return enc.record(self.node)

    def __str__(self) -> str:
        return NAME
