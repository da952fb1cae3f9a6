"""morne.VectorGame: n games stepped in C++ equal n single games with the same actions and
dice, whatever the threads; arrays without copies; bad actions refused before any change."""

import numpy as np
import pytest

import morne


def pick(masks, rng):
    """One legal action per row of `masks`, drawn with `rng` (a morne.Rng)."""
    actions = []
    for row in masks:
        legal = np.flatnonzero(row)
        actions.append(int(legal[rng.below(len(legal))]))
    return np.array(actions, dtype=np.int64)


@pytest.mark.parametrize("threads", [1, 3])
def test_vector_games_equal_single_games_with_the_same_actions_and_dice(threads):
    scenario = morne.load_scenario("duel")
    n, seed, steps = 5, 21, 400
    games = morne.VectorGame(scenario, n, seed=seed, threads=threads)
    planes, globals_, masks, players = games.reset()
    singles = [scenario.new_game() for _ in range(n)]
    dice = [morne.Rng(morne.derive_seed(seed, i)) for i in range(n)]

    def settle(i):
        while singles[i].is_chance_node():
            singles[i].apply_chance(singles[i].sample_chance(dice[i]))

    for i in range(n):
        settle(i)
    chooser, finished = morne.Rng(99), 0
    for _ in range(steps):
        actions = pick(masks, chooser)
        rewards, dones = games.step(actions)
        for i in range(n):
            singles[i].apply(int(actions[i]))
            settle(i)
            if singles[i].is_terminal():
                assert dones[i] == 1
                assert list(rewards[i]) == singles[i].returns()
                singles[i] = scenario.new_game()
                settle(i)
                finished += 1
            else:
                assert dones[i] == 0 and list(rewards[i]) == [0.0, 0.0]
            assert games.state(i) == singles[i]
            assert players[i] == singles[i].current_player()
            assert np.array_equal(masks[i], singles[i].legal_actions_mask())
            single_planes, single_globals = singles[i].observation()
            assert np.array_equal(planes[i], single_planes)
            assert np.array_equal(globals_[i], single_globals)
    assert finished > 0 and sum(games.episodes(i) for i in range(n)) == finished


def test_arrays_are_views_rewritten_in_place():
    games = morne.VectorGame(morne.load_scenario("duel"), 4, seed=3)
    first = games.reset()
    again = games.observations()
    for a, b in zip(first, again):
        assert np.shares_memory(a, b) and not a.flags.writeable
    assert first[0].shape == (4,) + games.scenario.observation_shape
    assert first[2].shape == (4, games.scenario.num_distinct_actions)
    before = np.array(first[0])
    games.step(pick(first[2], morne.Rng(1)))
    assert not np.array_equal(before, first[0])  # the same memory, the next positions


def test_chance_can_be_left_to_the_caller():
    scenario = morne.load_scenario("duel")
    games = morne.VectorGame(scenario, 2, seed=5, auto_chance=False)
    _, _, masks, players = games.reset()
    chooser, saw_chance = morne.Rng(2), False
    for _ in range(300):
        actions = []
        for i in range(2):
            if players[i] == morne.CHANCE:
                saw_chance = True
                assert masks[i].sum() == 0
                outcomes = games.state(i).chance_outcomes()
                actions.append(outcomes[chooser.below(len(outcomes))][0])
            else:
                legal = np.flatnonzero(masks[i])
                actions.append(int(legal[chooser.below(len(legal))]))
        games.step(np.array(actions, dtype=np.int32))
    assert saw_chance


def test_bad_actions_raise_and_change_nothing():
    games = morne.VectorGame(morne.load_scenario("duel"), 3, seed=4)
    _, _, masks, _ = games.reset()
    states = [games.state(i) for i in range(3)]
    good = pick(masks, morne.Rng(5))
    illegal = good.copy()
    illegal[1] = int(np.flatnonzero(masks[1] == 0)[0])
    with pytest.raises(ValueError, match="game 1"):
        games.step(illegal)
    with pytest.raises(ValueError, match="3 integers"):
        games.step(good[:2])
    with pytest.raises(ValueError, match="3 integers"):
        games.step(good.reshape(3, 1))
    with pytest.raises(TypeError, match="integers"):
        games.step(good.astype(np.float64))
    with pytest.raises(ValueError, match="game 0"):
        games.step(np.array([2**40, 0, 0]))
    assert [games.state(i) for i in range(3)] == states
    games.step(good)  # plain lists and other integer types work too
    games.step(list(pick(games.observations()[2], morne.Rng(6))))
    with pytest.raises(ValueError, match="at least 1"):
        morne.VectorGame(games.scenario, 0)
