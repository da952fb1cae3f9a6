"""morne: the Morne Plaine wargame's rules, agents and data from Python (docs/python.md).

    import morne
    scenario = morne.load_scenario("duel")
    state = scenario.new_game()
    rng = morne.Rng(7)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply(actions[rng.below(len(actions))])
    print(state.result())
"""

import os as _os

from . import _core
from ._core import (BLUE, CHANCE, ENCODER_VERSION, ORANGE, TERMINAL, Agent, Rng, Scenario,
                    ShardStream, State, VectorGame, agent_catalog, builtin_scenarios, data_schema,
                    derive_seed, load_scenario, scenario_from_json)
from .arena import arena
from .data import read_shards

__all__ = ["BLUE", "CHANCE", "ENCODER_VERSION", "ORANGE", "TERMINAL", "Agent", "Rng", "Scenario",
           "ShardStream", "State", "VectorGame", "agent_catalog", "arena", "builtin_scenarios",
           "data_schema", "derive_seed", "load_scenario", "read_shards", "scenario_from_json"]

# az:model=NAME finds the networks shipped with the package (models/), after MORNE_MODELS.
_core._add_model_folder(_os.path.join(_os.path.dirname(__file__), "models"))
