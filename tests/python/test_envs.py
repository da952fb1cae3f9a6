"""The RL environments (morne.envs): PettingZoo's AEC loop and Gymnasium's reset/step, with
the dice rolled inside from the seed, masks equal to the legal actions, and games the same
seed repeats."""

import numpy as np
import pytest

import morne
from morne import envs


def play_aec(env, seed, chooser_seed):
    env.reset(seed=seed)
    chooser = np.random.default_rng(chooser_seed)
    hashes, totals = [], {"blue": 0.0, "orange": 0.0}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert agent == envs.SIDES[env.state.current_player()]
        mask = observation["action_mask"]
        assert np.array_equal(mask, env.state.legal_actions_mask())
        assert observation["observation"].shape == env.scenario.observation_shape
        legal = np.flatnonzero(mask)
        env.step(int(legal[chooser.integers(len(legal))]))
        assert not env.state.is_chance_node()  # the dice are rolled inside
        hashes.append(env.state.hash)
    return hashes, totals, env


def test_the_aec_loop_plays_whole_games_with_zero_sum_rewards():
    hashes, totals, env = play_aec(envs.AECEnv("duel"), seed=3, chooser_seed=4)
    assert env.agents == [] and len(hashes) > 20
    assert totals["blue"] == -totals["orange"]
    assert env.infos["blue"]["result"]["terminal"]
    assert abs(totals["blue"]) in (0.0, 1.0)
    again, _, _ = play_aec(envs.AECEnv("duel"), seed=3, chooser_seed=4)
    assert again == hashes
    other, _, _ = play_aec(envs.AECEnv("duel"), seed=5, chooser_seed=4)
    assert other != hashes


def test_the_side_not_to_move_sees_its_last_observation_without_moves():
    env = envs.AECEnv("duel")
    env.reset(seed=1)
    idle = "orange" if env.agent_selection == "blue" else "blue"
    seen = env.observe(idle)
    assert seen["action_mask"].sum() == 0
    assert seen["observation"].shape == env.scenario.observation_shape
    assert env.observation_space(idle).contains(seen)


def test_an_illegal_step_raises_and_a_finished_agent_steps_none():
    env = envs.AECEnv("duel")
    env.reset(seed=2)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(ValueError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    play_aec(env, seed=2, chooser_seed=1)
    with pytest.raises(RuntimeError):
        envs.AECEnv("duel").observe("blue")


@pytest.mark.parametrize("side", ["blue", "orange"])
def test_the_single_agent_env_plays_against_a_built_in_opponent(side):
    env = envs.SingleAgentEnv("duel", opponent="rule", side=side)
    obs, info = env.reset(seed=7)
    assert env.action_space.n == env.scenario.num_distinct_actions
    steps, total = 0, 0.0
    terminated = False
    while not terminated:
        assert env.state.current_player() == envs.SIDES.index(side)
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        action = env.action_space.sample(obs["action_mask"])
        assert obs["action_mask"][action] == 1
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        total += reward
        steps += 1
    assert "result" in info and total in (-1.0, 0.0, 1.0) and steps > 5
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_the_single_agent_env_refuses_a_bad_opponent_or_side():
    with pytest.raises(ValueError, match="unknown"):
        envs.SingleAgentEnv("duel", opponent="mcts:simz=1")
    with pytest.raises(ValueError, match="side"):
        envs.SingleAgentEnv("duel", side="green")
