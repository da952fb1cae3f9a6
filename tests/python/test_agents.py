"""Agents and the arena from Python: every built-in spec (shipped networks included) decides
and explains; Python agents play duplicate arenas beside them with the reports of
`morne arena`, whose ratings a re-rate of games.csv reproduces."""

import json
import os
import subprocess

import pytest

import morne


def test_a_built_in_agent_decides_legally_and_reproducibly_with_its_analysis():
    state = morne.load_scenario("duel").new_game()
    first = morne.Agent("mcts:sims=150", seed=4)
    again = morne.Agent("mcts:sims=150", seed=4)
    action = first.decide(state)
    assert action in state.legal_actions()
    assert again.decide(state) == action
    analysis = morne.Agent("mcts:sims=150", seed=4).analyse(state)
    assert analysis["action"] == action and analysis["simulations"] == 150
    assert analysis["text"] == state.action_to_string(action)
    assert {c["action"] for c in analysis["children"]} <= set(state.legal_actions())
    assert analysis["pv"][0] == analysis["text"]
    assert -1.0 <= analysis["value"] <= 1.0
    assert morne.Agent("rule").decide(state) in state.legal_actions()


def test_a_shipped_network_plays_by_name():
    state = morne.load_scenario("duel").new_game()
    agent = morne.Agent("az:model=duel,sims=16")
    assert agent.decide(state) in state.legal_actions()
    assert "duel.pt" in agent.spec


def test_bad_specs_and_states_raise_value_errors():
    with pytest.raises(ValueError, match="unknown parameter"):
        morne.Agent("mcts:simz=3")
    with pytest.raises(ValueError, match="no shipped model"):
        morne.Agent("az:model=no-such-model")
    state = morne.load_scenario("duel").new_game()
    rng = morne.Rng(1)
    while not state.is_chance_node():
        state.play_random_ply(rng)
    with pytest.raises(ValueError, match="chance event"):
        morne.Agent("rule").decide(state)


class FirstLegal:
    """Plays the first legal action."""
    name = "first"

    def decide(self, state):
        return state.legal_actions()[0]


class Seeded:
    """Made once per game with its seed: a uniform legal action from its own Rng."""

    def __init__(self, seed):
        self.rng = morne.Rng(seed)

    def decide(self, state):
        actions = state.legal_actions()
        return state.action_to_string(actions[self.rng.below(len(actions))])  # text works too


def test_python_agents_play_an_arena_whose_ratings_a_re_rate_reproduces(tmp_path):
    seen = []
    summary = morne.arena([FirstLegal(), Seeded, "rule"], "duel", rounds=2, seed=9, jobs=2,
                          out=tmp_path / "run", progress=lambda done, total: seen.append(total))
    scope = summary["scopes"][0]
    assert scope["games"] == 12 and len(seen) == 12 and seen[0] == 12
    specs = [a["spec"] for a in scope["agents"]]
    assert specs == ["python:first", "python:Seeded", "rule"]
    for name in ("games.csv", "run.json", "ratings.csv", "pairs.csv", "summary.json", "elo.svg"):
        assert (tmp_path / "run" / name).exists()
    binary = os.environ.get("MORNE_BINARY")
    if not binary:
        pytest.skip("MORNE_BINARY (the morne executable) not given")
    # Anchored as the arena was (on its first agent): games.csv's first row is another's when
    # two games end out of order.
    subprocess.run([binary, "arena", "rate", "--anchor", specs[0], "--out", str(tmp_path / "rerate"),
                    str(tmp_path / "run" / "games.csv")], check=True, capture_output=True)
    rerated = json.loads((tmp_path / "rerate" / "summary.json").read_text())["scopes"][0]
    # games.csv is in finish order, which differs from the schedule's with two jobs; the fit stops
    # when its Newton step is under 1e-7 Elo, so another summing order moves it within 1e-6.
    # The re-rating lists the agents in the order games.csv first names them.
    theirs = {a["spec"]: a for a in rerated["agents"]}
    assert sorted(theirs) == sorted(specs)
    for mine in scope["agents"]:
        for key, value in mine["elo"].items():
            assert value == pytest.approx(theirs[mine["spec"]]["elo"][key], abs=1e-6), key
        assert mine["results"] == theirs[mine["spec"]]["results"]


def test_the_same_seed_gives_the_same_arena():
    def run():
        scope = morne.arena([Seeded, "random"], "duel", rounds=2, seed=3, jobs=2)["scopes"][0]
        return [(a["results"], a["steps"], a["mean_plies"]) for a in scope["agents"]]
    assert run() == run()


def test_a_python_agents_mistakes_stop_the_arena_with_its_name():
    class Illegal:
        def decide(self, state):
            return 5  # no start position allows it

    with pytest.raises(ValueError, match="python:Illegal.decide: action"):
        morne.arena([Illegal(), "random"], "duel", rounds=1)

    class Broken:
        def decide(self, state):
            raise KeyError("lost")

    with pytest.raises(KeyError, match="lost"):
        morne.arena([Broken(), "random"], "duel", rounds=1, jobs=2)
    with pytest.raises(ValueError, match="same name"):
        morne.arena([FirstLegal(), FirstLegal()], "duel", rounds=1)
    with pytest.raises(TypeError):
        morne.arena([3, "random"], "duel", rounds=1)


def test_an_arena_folder_with_results_is_not_overwritten(tmp_path):
    morne.arena(["rule", "random"], "duel", rounds=1, out=tmp_path)
    with pytest.raises(ValueError, match="results"):
        morne.arena(["rule", "random"], "duel", rounds=1, out=tmp_path)
    morne.arena(["rule", "random"], "duel", rounds=1, out=tmp_path, force=True)
