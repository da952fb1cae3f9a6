#!/usr/bin/env python3
"""A random agent of one's own, in Python, over the engine protocol (docs/agents.md, "Agents of
your own"). morne runs it as `ext:cmd=python3 examples/random_bot.py` and sends it, one JSON
line each, a `load` (the scenario and the seed) and a `genmove` for every decision; it answers
each with one line. It draws as morne's own `random` agent does (a uniform legal action from
the engine's seeded generator), so its games are the very games of `random` with the same seeds.
Needs the Python module: `import morne` (docs/python.md)."""

import json
import sys

import morne


def reply(request, **fields):
    """Writes one reply line: ok, the request's cmd and id, and `fields`."""
    line = {"ok": True, "cmd": request.get("cmd"), "id": request.get("id"), **fields}
    print(json.dumps(line), flush=True)


def main():
    scenario, rng = None, None
    for line in sys.stdin:
        request = json.loads(line)
        cmd = request.get("cmd")
        if cmd == "load":
            scenario = morne.scenario_from_json(json.dumps(request["json"]))
            rng = morne.Rng(request.get("seed", 1))
            reply(request, name=scenario.name)
        elif cmd == "genmove":
            state = scenario.state_from_json(json.dumps(request["state"]))
            legal = state.legal_actions()
            reply(request, index=legal[rng.below(len(legal))])
        elif cmd == "quit":
            reply(request)
            return
        else:
            error = {"code": "unknown_command", "message": f"{cmd}: not a command of this agent"}
            print(json.dumps({"ok": False, "id": request.get("id"), "error": error}), flush=True)


if __name__ == "__main__":
    main()
