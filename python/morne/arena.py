"""morne.arena: a duplicate round robin of built-in specs and agents written in Python, with
the reports of `morne arena` (games.csv, run.json, ratings.csv, pairs.csv, summary.json,
elo.svg; docs/arena.md)."""

import json
import os
import tempfile

from . import _core


def _name_of(agent):
    name = getattr(agent, "name", None) or getattr(agent, "__name__", None) \
        or type(agent).__name__
    return "python:" + str(name)


def arena(agents, scenarios=("crossing",), rounds=10, seed=1, jobs=1, out=None, records=False,
          force=False, progress=None):
    """Plays every pair of `agents` in `rounds` duplicate rounds (two games, sides swapped, the
    same dice) on each scenario, and returns the run's summary (summary.json's content: games,
    W/D/L per pair, Elo with 95% intervals anchored on the first agent).

    agents: specs ("rule", "mcts:sims=300", "az:model=crossing"), morne.Agent objects (each
    plays as its spec: a fresh agent per game, seeded by the arena) and Python agents: an object
    with decide(state) -> action (index or text) serves every game; a class, or a function of
    the agent's seed, makes one per game. A Python agent is named by its `name` attribute, else
    its class's name, as "python:NAME" in the reports. Python agents run under the GIL, the
    built-in ones in parallel around them (`jobs` games at a time).
    out: the folder for the reports (refused when it holds results, unless force=True); None
    keeps them only for the summary returned. Ctrl-C stops at once (the games in progress stay
    unplayed), writes the reports of the finished games and raises KeyboardInterrupt.
    progress: called as progress(finished, total) after each game.
    """
    specs, makers = [], []
    for agent in agents:
        if isinstance(agent, _core.Agent):  # a built-in agent plays as its spec, one per game
            agent = agent.spec
        if isinstance(agent, str):
            specs.append(agent)
            makers.append(None)
        else:
            if not (hasattr(agent, "decide") or callable(agent)):
                raise TypeError(f"arena: {agent!r} is neither a spec nor an agent with decide()")
            specs.append(_name_of(agent))
            makers.append(agent)
    if len(set(specs)) != len(specs):
        raise ValueError(f"arena: two agents have the same name: {specs} (give each a `name`)")
    if isinstance(scenarios, str):
        scenarios = [scenarios]
    if out is not None and not force and os.path.exists(os.path.join(out, "games.csv")):
        raise ValueError(f"arena: {os.fspath(out)} already holds the results of a run: "
                         "force=True deletes them, or give another out")
    with tempfile.TemporaryDirectory(prefix="morne-arena-") as scratch:
        folder = os.fspath(out) if out is not None else os.path.join(scratch, "arena")
        _core._arena(specs, makers, list(scenarios), rounds, seed, jobs, folder, records, force,
                     progress)
        with open(os.path.join(folder, "summary.json")) as f:
            return json.load(f)
