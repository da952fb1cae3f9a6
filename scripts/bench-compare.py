#!/usr/bin/env python3
"""Compares two builds of morne on one `morne bench` target, in one run.

    scripts/bench-compare.py BASE_BINARY NEW_BINARY TARGET [--rounds 6] [-- BENCH OPTIONS]

    scripts/bench-compare.py /tmp/base/build/morne build/morne env -- --seconds 1

Runs `BINARY bench TARGET --repeats 1 BENCH OPTIONS` for the two binaries in alternating
order (base then new, new then base, ...) so that drifts of a noisy machine fall on both, and
prints for every figure of the bench's tables the median of each build and the new/base ratio
of each round: median, min and max. A ratio above 1 means the new build gives the larger figure (faster for rates such as
sims/s, slower for times such as ns).
"""

import argparse
import re
import statistics
import subprocess
import sys

ROW = re.compile(r"^(\s*\S.*?)\s{2,}(-?[0-9.]+)\s+(-?[0-9.]+)\s+(-?[0-9.]+)\s*$")


def figures(binary, target, options):
    """The figures of one bench run: {(table, row): value}."""
    out = subprocess.run([binary, "bench", target, "--repeats", "1", *options],
                         check=True, capture_output=True, text=True).stdout
    table, result = "", {}
    for line in out.splitlines():
        if line.rstrip().endswith("median          min          max"):
            table = line.split("  ")[0].strip()
            continue
        m = ROW.match(line)
        if m and table:
            result[(table, m.group(1).strip())] = float(m.group(2))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("new")
    parser.add_argument("target", choices=["env", "mcts", "nn", "selfplay", "train"])
    parser.add_argument("--rounds", type=int, default=6)
    argv = sys.argv[1:]
    options = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    args.options = options
    if args.rounds < 1:
        sys.exit("bench-compare: --rounds must be at least 1")

    ratios, values = {}, {}
    for r in range(args.rounds):
        order = [args.base, args.new] if r % 2 == 0 else [args.new, args.base]
        got = {binary: figures(binary, args.target, args.options) for binary in order}
        for key, new_value in got[args.new].items():
            base_value = got[args.base].get(key)
            if base_value:
                ratios.setdefault(key, []).append(new_value / base_value)
                values.setdefault(key, ([], []))
                values[key][0].append(base_value)
                values[key][1].append(new_value)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)

    print(f"bench {args.target}: new/base per round, {args.rounds} rounds in alternating order")
    print(f"{'figure':<50} {'base':>10} {'new':>10}   {'new/base':>8} {'min':>6} {'max':>6}")
    for key, r in ratios.items():
        name = f"{key[0]}: {key[1]}"[:50]
        base, new = (statistics.median(v) for v in values[key])
        print(f"{name:<50} {base:10.4g} {new:10.4g}   {statistics.median(r):8.3f} "
              f"{min(r):6.3f} {max(r):6.3f}")


if __name__ == "__main__":
    main()
