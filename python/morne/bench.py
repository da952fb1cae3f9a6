"""Speed of the Python module against the C++ engine it binds: python3 -m morne.bench.

Measures on one core, for each scenario named (duel and crossing by default):
  - random playouts driven from Python (legal_actions, apply, sample_chance per ply), against
    the same playouts stepped by one C++ call per ply (play_random_ply); their difference is
    the Python loop's own cost per ply;
  - VectorGame.step over n games (the dice rolled, observations and masks written in C++),
    per game-step, with the actions drawn in numpy from the masks (timed apart);
  - observation(): the read-only view against a copy of it (numpy.array);
  - clone() of a state.
Each figure is the median of --repeats interleaved rounds. `morne bench env` gives the C++
engine's own figures (random playouts per second) for comparison.
"""

import argparse
import statistics
import time

import numpy as np

import morne


def timed(seconds, body):
    """Calls body() (which returns a count of units done) for about `seconds`; seconds per unit."""
    done, start = 0, time.perf_counter()
    while True:
        done += body()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / done


def python_playout(scenario, rng):
    state, plies = scenario.new_game(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(state.sample_chance(rng))
        else:
            actions = state.legal_actions()
            state.apply(actions[rng.below(len(actions))])
        plies += 1
    return plies


def cpp_playout(scenario, rng):
    state, plies = scenario.new_game(), 0
    while not state.is_terminal():
        state.play_random_ply(rng)
        plies += 1
    return plies


def vector_steps(seconds, games, masks, rng):
    """Seconds a game-step of games.step() and of choosing its actions in numpy."""
    stepping = choosing = 0.0
    done = 0
    while stepping + choosing < seconds:
        t0 = time.perf_counter()
        # One legal action per game: the largest of uniform draws over the legal entries.
        actions = np.argmax(masks * rng.random(masks.shape, dtype=np.float32), axis=1)
        t1 = time.perf_counter()
        games.step(actions)
        t2 = time.perf_counter()
        choosing += t1 - t0
        stepping += t2 - t1
        done += games.size
    return stepping / done, choosing / done


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", action="append", help="scenario (repeatable)")
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement and round")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds")
    parser.add_argument("--games", type=int, default=64, help="games of the VectorGame")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"morne.bench: one thread, {args.repeats} interleaved rounds of {args.seconds} s; "
          "median (min..max)")
    for name in args.scenario or ["duel", "crossing"]:
        scenario = morne.load_scenario(name)
        rng = morne.Rng(args.seed)
        games = morne.VectorGame(scenario, args.games, seed=args.seed)
        masks = games.reset()[2]
        draws = np.random.default_rng(args.seed)
        state = scenario.new_game()
        rows = {"python loop, us a ply": [], "C++ ply called from Python, us a ply": [],
                f"VectorGame.step ({args.games} games), us a game-step": [],
                "  numpy action choice, us a game-step": [],
                "observation() view, us": [], "observation() + numpy copy, us": [],
                "clone(), us": []}
        for _ in range(args.repeats):
            rows["python loop, us a ply"].append(
                timed(args.seconds, lambda: python_playout(scenario, rng)))
            rows["C++ ply called from Python, us a ply"].append(
                timed(args.seconds, lambda: cpp_playout(scenario, rng)))
            stepping, choosing = vector_steps(args.seconds, games, masks, draws)
            rows[f"VectorGame.step ({args.games} games), us a game-step"].append(stepping)
            rows["  numpy action choice, us a game-step"].append(choosing)
            rows["observation() view, us"].append(
                timed(args.seconds / 4, lambda: (state.observation(), 1)[1]))
            rows["observation() + numpy copy, us"].append(
                timed(args.seconds / 4, lambda: (np.array(state.observation()[0]), 1)[1]))
            rows["clone(), us"].append(timed(args.seconds / 4, lambda: (state.clone(), 1)[1]))
        print(f"\n{name} (observation {scenario.observation_shape}, "
              f"{scenario.num_distinct_actions} actions)")
        for label, values in rows.items():
            us = [v * 1e6 for v in values]
            print(f"  {label:<48} {statistics.median(us):9.3f}  ({min(us):.3f}..{max(us):.3f})")
        loop = statistics.median(rows["python loop, us a ply"])
        cpp = statistics.median(rows["C++ ply called from Python, us a ply"])
        print(f"  the Python loop's own cost: {1e6 * (loop - cpp):.3f} us a ply")


if __name__ == "__main__":
    main()
