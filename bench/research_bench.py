"""The research adapters' speed: uniformly random games through pyspiel's API and
through the PettingZoo environment, and the costs of a clone, a legal-action list
and an information-state tensor (``python -m bench research``).

CPU time of this process, one core. A uniformly random player is a poor one: the
Marshal adds numbers to her guess half the time, so most guesses miss and games are
long (and some reach ``max_turns``); actions per second is the figure that carries
over to other players.
"""
from __future__ import annotations

import random
import time

GAMES = 200


def _pyspiel_games(game, games: int, seed: int) -> tuple[float, float, float]:
    """(games/s, actions/s, actions per game) of uniformly random games."""
    import engine.openspiel as eo

    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        actions += len(eo.random_game(game, rng).history())
    elapsed = time.process_time() - start
    return games / elapsed, actions / elapsed, actions / games


def _pettingzoo_games(games: int, seed: int, wrapped: bool = True, **kwargs) -> tuple[float, float, float]:
    """The same through ``engine.pettingzoo.env()`` (or ``raw_env``), each agent's
    observation built at each of its steps (what a learning loop pays)."""
    import numpy as np

    from engine import pettingzoo as fpz

    rng = random.Random(seed)
    env = fpz.env(**kwargs) if wrapped else fpz.raw_env(**kwargs)
    steps = 0
    start = time.process_time()
    for i in range(games):
        env.reset(seed=seed + i)
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    elapsed = time.process_time() - start
    return games / elapsed, steps / elapsed, steps / games


def _micro(game) -> dict[str, float]:
    """Microseconds per clone, legal_actions() and information_state_tensor() over the
    decision states of a few random games."""
    import engine.openspiel as eo

    rng = random.Random(1)
    states = []
    for _ in range(5):
        final = eo.random_game(game, rng)
        state = game.new_initial_state()
        for a in final.history():
            if not state.is_chance_node():
                states.append(state.clone())
            state.apply_action(a)
    import pyspiel
    from open_spiel.python.observation import make_observation

    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    out = {}
    for name, call in (
        ("clone", lambda s: s.clone()),
        ("legal_actions", lambda s: s.legal_actions()),
        ("information_state_string", lambda s: s.information_state_string(s.current_player())),
        ("information state tensor as numpy (make_observation)", lambda s: info.set_from(s, s.current_player())),
        ("information_state_tensor() as a Python list", lambda s: s.information_state_tensor(s.current_player())),
    ):
        start = time.process_time()
        for s in states:
            call(s)
        out[name] = (time.process_time() - start) / len(states) * 1e6
    return out


def main() -> None:
    try:
        import pyspiel

        import engine.openspiel  # noqa: F401  (registers python_fugitive)
    except ImportError as exc:
        print(f"skipped: the research extra is not installed (pip install -e '.[research]'): {exc}")
        return
    for params in ({}, {"opening": "two", "pass_draw": True}):
        game = pyspiel.load_game("python_fugitive", params)
        rate, actions, length = _pyspiel_games(game, GAMES, seed=0)
        print(f"pyspiel, uniformly random players, {game}: {rate:,.1f} games/s, "
              f"{actions:,.0f} actions/s ({length:.0f} actions and chance outcomes per game)")
    game = pyspiel.load_game("python_fugitive")
    micro = _micro(game)
    print("pyspiel, per decision state: " + ", ".join(f"{k} {v:,.1f} µs" for k, v in micro.items()))
    for wrapped, observation in ((True, "information_state"), (True, "observation"), (False, "information_state")):
        rate, steps, length = _pettingzoo_games(GAMES, seed=0, wrapped=wrapped, observation=observation)
        print(f"PettingZoo {'env' if wrapped else 'raw_env'}(observation={observation!r}), random legal actions: "
              f"{rate:,.1f} games/s, {steps:,.0f} agent steps/s ({length:.0f} steps per game)")


if __name__ == "__main__":
    main()
