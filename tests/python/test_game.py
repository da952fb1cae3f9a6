"""The game layer of the Python module (docs/python.md): the same rules as the C++ engine,
copies and pickles that round-trip, exact chance, masks, observations without a copy, and
Python exceptions (never a crash) for bad input."""

import copy
import json
import os
import pickle
import subprocess
from fractions import Fraction

import numpy as np
import pytest

import morne


def random_game(scenario, seed, max_plies=100000):
    """A game played from Python: dice by sample_chance, actions legal_actions()[rng.below(n)],
    as env::playRandomPly does; the hash after every ply."""
    state, rng, hashes = scenario.new_game(), morne.Rng(seed), []
    while not state.is_terminal() and len(hashes) < max_plies:
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply(actions[rng.below(len(actions))])
        hashes.append(state.hash)
    return state, hashes


@pytest.mark.parametrize("name", ["duel", "crossing", "crossing-ancient"])
def test_a_python_game_equals_the_same_seeds_game_in_cpp(name):
    scenario = morne.load_scenario(name)
    for seed in (1, 2):
        python_state, python_hashes = random_game(scenario, seed)
        cpp_state, cpp_hashes, rng = scenario.new_game(), [], morne.Rng(seed)
        while not cpp_state.is_terminal():
            cpp_state.play_random_ply(rng)
            cpp_hashes.append(cpp_state.hash)
        assert python_hashes == cpp_hashes
        assert python_state == cpp_state
        assert python_state.result() == cpp_state.result()


def test_a_record_of_morne_play_replays_to_its_result_in_python(tmp_path):
    binary = os.environ.get("MORNE_BINARY")
    if not binary:
        pytest.skip("MORNE_BINARY (the morne executable) not given")
    path = tmp_path / "game.json"
    subprocess.run([binary, "play", "--scenario", "duel", "--blue", "random", "--orange", "rule",
                    "--seed", "5", "--quiet", "--record", str(path)], check=True,
                   capture_output=True)
    record = json.loads(path.read_text())
    state = morne.load_scenario("duel").new_game()
    assert record["start"] is None
    for ply in record["plies"]:
        if isinstance(ply, dict):  # {"chance": "fire_die", "outcome": 2}
            state.apply_chance(ply["outcome"])
        else:  # the action's text, "move 0307>0306"
            state.apply(ply)
    assert state.is_terminal()
    expected = record["result"]
    result = state.result()
    assert result["vp"] == (expected["vp"]["blue"], expected["vp"]["orange"])
    assert result["level_name"] == expected["level_name"]
    assert ["blue", "orange"][result["winner"]] == expected["winner"]


def test_clone_copy_and_pickle_round_trip_and_stay_independent():
    scenario = morne.load_scenario("duel")
    state, _ = random_game(scenario, 3, max_plies=40)
    for twin in (state.clone(), copy.copy(state), copy.deepcopy(state),
                 pickle.loads(pickle.dumps(state)),
                 scenario.state_from_json(state.to_json())):
        assert twin == state and twin.hash == state.hash
        assert twin.legal_actions() == state.legal_actions()
        before = state.hash
        while twin.hash == before and not twin.is_terminal():
            if twin.is_chance_node():
                twin.apply_chance(twin.chance_outcomes()[0][0])
            else:
                twin.apply(twin.legal_actions()[-1])
        assert state.hash == before and twin != state
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled.scenario is state.scenario  # one scenario object per document
    again = pickle.loads(pickle.dumps(scenario))
    assert again.to_json() == scenario.to_json() and again.new_game() == scenario.new_game()


def test_chance_probabilities_sum_to_one_exactly_and_masks_equal_the_legal_actions():
    scenario = morne.load_scenario("crossing")
    chance_nodes = decisions = 0
    state, rng = scenario.new_game(), morne.Rng(11)
    while not state.is_terminal():
        if state.is_chance_node():
            assert state.current_player() == morne.CHANCE
            exact = state.chance_outcomes_exact()
            assert sum(p for _, p in exact) == Fraction(1)
            assert [v for v, _ in exact] == [v for v, _ in state.chance_outcomes()]
            assert state.legal_actions() == []
            chance_nodes += 1
            state.apply_chance(state.sample_chance(rng))
        else:
            assert state.current_player() == state.side
            legal = state.legal_actions()
            mask = state.legal_actions_mask()
            assert mask.dtype == np.uint8 and mask.shape == (scenario.num_distinct_actions,)
            assert sorted(legal) == list(np.flatnonzero(mask))
            assert set(state.agent_actions()) <= set(legal)
            decisions += 1
            state.apply(legal[rng.below(len(legal))])
    assert state.current_player() == morne.TERMINAL
    assert chance_nodes > 10 and decisions > 10


def test_the_observation_is_a_read_only_view_without_a_copy():
    scenario = morne.load_scenario("duel")
    state = scenario.new_game()
    planes, globals_ = state.observation()
    assert planes.shape == scenario.observation_shape and planes.dtype == np.float32
    assert globals_.shape == (scenario.globals_size,)
    assert not planes.flags.writeable and not planes.flags.owndata
    copy_before = np.array(planes)
    again, _ = state.observation()
    assert np.shares_memory(planes, again)  # the state's own buffer, not a new one
    on_map = planes[0]  # plane 0 is 1 on the map's hexes
    assert on_map.sum() == scenario.num_cells
    # The view stays valid while the array lives, even once the state is gone.
    del state, again
    assert np.array_equal(planes, copy_before)
    with pytest.raises(ValueError):
        planes[0, 0, 0] = 2.0
    # The policy layout: every legal action's place in the observation's grid is on the map.
    state = scenario.new_game()
    for action in state.legal_actions():
        where = scenario.action_location(action)
        if where is not None:
            plane, row, column = where
            assert on_map[row, column] == 1.0
            assert scenario.action_index(plane, row, column) == action
    with pytest.raises(ValueError, match="off the map"):
        scenario.action_index(0, 0, scenario.observation_shape[2])


def test_bad_input_raises_python_exceptions_with_the_engines_message():
    duel = morne.load_scenario("duel")
    state = duel.new_game()
    with pytest.raises(OSError, match="not a built-in scenario"):
        morne.load_scenario("no-such-scenario")
    with pytest.raises(ValueError, match="not legal"):
        state.apply(5)  # legal in no start position: an orange unit's step
    with pytest.raises(ValueError, match="not an action index"):
        state.apply(10**9)
    with pytest.raises(ValueError, match="not an action index"):
        state.apply(-1)
    with pytest.raises(TypeError):
        state.apply(1.5)
    with pytest.raises(TypeError):
        state.apply(None)
    with pytest.raises(ValueError, match="no chance event"):
        state.chance_outcomes()
    with pytest.raises(ValueError, match="unknown value"):
        morne.load_scenario("crossing", rules={"morale_model": "no-such-model"})
    with pytest.raises(ValueError, match="built-in scenario"):
        morne.load_scenario("some/file.json", rules={"morale_model": "mp"})
    with pytest.raises(ValueError):
        duel.state_from_json("{not json")
    crossing_state = morne.load_scenario("crossing").new_game()
    with pytest.raises(ValueError):  # a state of another scenario
        duel.state_from_json(crossing_state.to_json())
    with pytest.raises(ValueError, match="phasing side"):
        state.observation(player=1 - state.side)
    finished, _ = random_game(duel, 4)
    with pytest.raises(ValueError, match="game is over"):
        finished.apply(0)


def test_rule_switches_make_a_variant_that_plays():
    variant = morne.load_scenario("crossing", rules={"morale_model": "ancient_2d6",
                                                     "failed_test": "ancient_rout"})
    assert variant.rules["morale_model"] == "ancient_2d6"
    assert variant.rules != morne.load_scenario("crossing").rules
    state, hashes = random_game(variant, 8)
    assert state.is_terminal() and len(hashes) > 100


def test_previews_and_questions_answer_as_the_protocol_does():
    state = morne.load_scenario("duel").new_game()
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    step = next(m for m in moves if m.startswith("move"))
    preview = state.preview_step(text=step)
    assert preview["from"] + ">" + preview["to"] == step.split()[1]
    assert sum(Fraction(o["num"], o["den"]) for o in preview["outcomes"]) == 1
    reachable = state.reachable(unit=preview["unit"])
    assert preview["to"] in {h["hex"] for h in reachable["hexes"]}
    assert set(state.zone_of_control()["zoc"]) == {"blue", "orange"}
    assert state.line_of_sight(**{"from": preview["from"], "to": preview["to"]})["visible"]
    with pytest.raises(ValueError, match="neither a unit id nor a hex"):
        state.preview_fire(gun="nope", target="0307")
    assert morne.State.from_json(state.scenario, state.to_json()) == state
