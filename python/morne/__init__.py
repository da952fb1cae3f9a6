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

from ._core import (BLUE, CHANCE, ENCODER_VERSION, ORANGE, TERMINAL, Rng, Scenario, State,
                    VectorGame, builtin_scenarios, derive_seed, load_scenario)

__all__ = ["BLUE", "CHANCE", "ENCODER_VERSION", "ORANGE", "TERMINAL", "Rng", "Scenario", "State",
           "VectorGame", "builtin_scenarios", "derive_seed", "load_scenario"]
