#!/usr/bin/python3
"""Prints the Markdown tables of a variant study (docs/variants.md) from arena summary.json files.

  scripts/variant-table.py runs/variant-study/*/summary.json

One table per file, one row per scenario: each pair's score (first agent against the second, duplicate rounds
with their 95 % margin), the mean game length in plies and blue's score and Elo advantage.
"""
import json
import sys


def table(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        summary = json.load(f)
    specs = summary["agents"]
    scopes = [s for s in summary["scopes"] if s["scope"] in summary["scenarios"]]
    if not scopes:
        print(f"{path}: no per-scenario results", file=sys.stderr)
        return 1
    pair_names = [f"{specs[p['agent']]} vs {specs[p['opponent']]}" for p in scopes[0]["pairs"]]
    print("| scenario | games | " + " | ".join(pair_names) + " | plies/game | blue score | blue Elo |")
    print("|---|---|" + "---|" * len(pair_names) + "---|---|---|")
    for s in scopes:
        cells = []
        for p in s["pairs"]:
            d = p["duplicate"]
            cells.append(f"{100 * p['total']['score']:.0f} % (dup. {d['mean']:+.2f} ± {d['margin95']:.2f})")
        # Every agent plays as many games: the mean of their means is the mean over games.
        plies = sum(a["mean_plies"] for a in s["agents"]) / len(s["agents"])
        adv = s["side_advantage"]
        print(f"| {s['scope']} | {s['games']} | " + " | ".join(cells) +
              f" | {plies:.0f} | {100 * s['blue']['score']:.0f} % | "
              f"{adv['elo']:+.0f} [{adv['low95']:+.0f}, {adv['high95']:+.0f}] |")
    print()
    return 0


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    return max(table(path) for path in sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
