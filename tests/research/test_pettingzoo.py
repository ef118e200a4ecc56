"""engine.pettingzoo: PettingZoo's own API and seed tests, records the validator
accepts, observations that are the agent's own knowledge, ansi rendering."""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="the research extra is not installed: pip install -e '.[research]'")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from engine import encoding as enc  # noqa: E402
from engine import pettingzoo as fpz  # noqa: E402
from engine import replay  # noqa: E402
from notepad import validate  # noqa: E402

# api_test's advice that does not apply: agents are named "fugitive" and "marshal"
# (not "player_0"), and the observation is a dict of the observation and the action
# mask, as in PettingZoo's own classic games.
ADVICE = ("We recommend agents to be named", "Observation space for each agent probably should be",
          "Observation is not a NumPy array")


def random_episode(env, rng: random.Random):
    """Play to the end with uniformly random legal actions; the last rewards seen."""
    rewards = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        rewards[agent] = reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.random() * len(legal))]))
    return rewards


@pytest.mark.parametrize("kwargs", [
    {},
    {"observation": "observation", "opening": "two", "pass_draw": True, "max_turns": 8},
    {"opening": "two", "max_turns": 3},
])
def test_pettingzoos_api_test(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any other warning of api_test fails the test
        for advice in ADVICE:
            warnings.filterwarnings("ignore", message=advice)
        api_test(fpz.env(**kwargs), num_cycles=400)


def test_pettingzoos_seed_test():
    seed_test(lambda: fpz.env(max_turns=40), num_cycles=300)
    seed_test(lambda: fpz.env(opening="two", pass_draw=True), num_cycles=300)


def test_a_random_agent_episode_gives_a_record_the_validator_accepts():
    rng = random.Random(4)
    outcomes = set()
    for seed in range(16):
        env = fpz.env(opening=("one-or-two", "two")[seed % 2], pass_draw=seed % 4 >= 2)
        env.reset(seed=seed)
        rewards = random_episode(env, rng)
        record = env.unwrapped.record()
        checked = validate(record)  # raises RecordRuleError on any broken rule
        assert replay(record) == env.unwrapped.node.game
        if env.unwrapped.node.cut:
            assert not checked.over and rewards == {"fugitive": 0.0, "marshal": 0.0}
            outcomes.add("cut")
        else:
            assert checked.over
            assert rewards[checked.winner] == 1.0 and rewards[({"fugitive", "marshal"} - {checked.winner}).pop()] == -1.0
            outcomes.add(checked.winner)
    assert outcomes == {"fugitive", "marshal", "cut"}, outcomes


def test_a_truncated_game_says_so():
    env = fpz.env(max_turns=2)
    env.reset(seed=3)
    random_episode(env, random.Random(0))
    assert env.unwrapped.node.cut and env.unwrapped.node.guesses == 2


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    deals = []
    for seed in (5, 5, 6):
        env = fpz.raw_env()
        env.reset(seed=seed)
        deals.append(env.node.game.fugitive_setup)
    assert deals[0] == deals[1] != deals[2]


def test_an_observation_is_the_agents_own_openspiel_information_state():
    pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed")
    import engine.openspiel as eo

    env = fpz.raw_env(opening="two", pass_draw=True)
    env.reset(seed=8)
    rng = random.Random(1)
    game = pyspiel.load_game("python_fugitive", {"opening": "two", "pass_draw": True})
    for step in range(300):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        if step % 10 == 0:
            state = eo.state_from_record(game, env.record())
            assert state.node == env.node or env.node.chosen
            for player, name in enumerate(fpz.AGENTS):
                if state.node == env.node:
                    assert np.array_equal(env.observe(name)["observation"],
                                          np.asarray(state.information_state_tensor(player), np.float32))
        mask = env.observe(agent)["action_mask"]
        assert not env.observe(fpz.AGENTS[1 - fpz.AGENTS.index(agent)])["action_mask"].any()
        legal = np.flatnonzero(mask)
        assert list(legal) == enc.legal_actions(env.node)
        env.step(int(legal[int(rng.random() * len(legal))]))


def test_the_marshals_observation_does_not_change_with_the_fugitives_unfinished_choice():
    env = fpz.raw_env()
    env.reset(seed=2)
    rng = random.Random(3)
    while not env.node.chosen or env.agent_selection != "fugitive":
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        before = env.observe("marshal")["observation"]
        action = int(legal[int(rng.random() * len(legal))])
        env.step(action)
        if env.node.chosen and env.agent_selection == "fugitive":  # he just chose a sprint card
            assert np.array_equal(before, env.observe("marshal")["observation"])
            assert env.observe("fugitive")["observation"].sum() > 0
        if env.terminations["fugitive"] or env.truncations["fugitive"]:
            env.reset(seed=rng.randrange(1000))


def test_ansi_rendering():
    env = fpz.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Fugitive's hand" in text and "Marshal's hand" in text and "stage: fugitive_opening" in text
    marshal_only = fpz.raw_env(render_mode="ansi", render_as="marshal")
    marshal_only.reset(seed=1)
    assert "Fugitive's hand" not in marshal_only.render() and "row: 0" in marshal_only.render()
    quiet = fpz.raw_env()
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


def test_an_illegal_action_is_refused_by_the_raw_env_and_loses_in_the_wrapped_one():
    raw = fpz.raw_env()
    raw.reset(seed=0)
    before = raw.node
    with pytest.raises(enc.IllegalAction, match="guess"):
        raw.step(enc.guess_action(5))  # the Fugitive's turn
    assert raw.node is before and raw.agent_selection == "fugitive"
    wrapped = fpz.env()
    wrapped.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(enc.guess_action(5))
    assert wrapped.terminations["fugitive"] and wrapped.rewards["fugitive"] == -1


@pytest.mark.parametrize("kwargs, words", [
    ({"opening": "three"}, "opening"), ({"pass_draw": "yes"}, "pass_draw"), ({"max_turns": 0}, "max_turns"),
    ({"observation": "everything"}, "observation"), ({"render_mode": "human"}, "render_mode"),
    ({"render_as": "spectator"}, "render_as"),
])
def test_bad_arguments_are_refused_clearly(kwargs, words):
    with pytest.raises(ValueError, match=words):
        fpz.raw_env(**kwargs)
