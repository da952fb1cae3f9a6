#!/usr/bin/env python3
"""Writes the model card of a shipped network (models/NAME.json; the list is models/README.md).

The card is made from the files alone, never typed by hand: the network file (its size, CRC-32
and what `morne nn info` reads from it: scenario, encoder version, shape, weights checksum,
provenance), the `morne loop` run folder that trained it (the CPU-hours, self-play games and
positions spent up to that generation, the loop's settings) and the report folders of the arenas
that measured it. Each match is pooled over the arenas of one pair of agents on one scenario
played with at least two dice seeds and 200 games in all (`morne arena rate` merges them): the
card gives the games, the result, the Elo with its 95% interval of the network's agent over its
opponent, the duplicate rounds won, split and lost, the seeds and the commands. A match with
one seed or fewer games is refused: a figure that holds on one seed may not hold on another.

  scripts/model-card.py --morne build/morne --net models/duel.pt --run RUN \\
      --config configs/loop-duel.cfg --trained "morne loop ..." \\
      --match RAW-SEED1 RAW-SEED2 --match MS50-SEED1 MS50-SEED2 --out models/duel.json

`--matches-only` replaces the measured matches of the existing card --out (and its note, given
`--note`) and keeps the rest (a network measured again). `--add-matches` keeps the card's
matches too: each new one replaces a match of the same two agents on the same scenario, or is
added after them (a network measured against one more opponent, without playing the others
again).

  scripts/model-card.py --morne build/morne --net models/pyramids.pt --add-matches \\
      --match MS200-SEED1 MS200-SEED2 --out models/pyramids.json

A network rewritten in place (`morne nn upgrade models/NAME.pt --out models/NAME.pt --force`)
keeps its training and its measured matches: `--refresh` rewrites only what is read from the
network file (size, CRC-32, encoder version, shape, weights checksum) in its existing card.

  scripts/model-card.py --morne build/morne --net models/duel.pt --refresh --out models/duel.json

Only the standard library is needed.
"""

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import zlib

FORMAT = "morne-model-card/1"
MIN_GAMES = 200  # of a match, over all its seeds
MIN_SEEDS = 2


def fail(message):
    sys.exit("model-card: " + message)


def network_info(morne, net):
    """The fields of `morne nn info NET`, and its provenance."""
    out = subprocess.run([morne, "nn", "info", net], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"{net}: morne nn info failed: {out.stdout}{out.stderr}")
    text = out.stdout
    fields = {}
    for key in ("scenario", "plays", "input", "trunk", "policy", "value head", "parameters",
                "weights"):
        m = re.search(r"^" + key + r":\s*(.*)$", text, re.M)
        if not m:
            fail(f"{net}: `nn info` printed no {key!r} line")
        fields[key] = m.group(1).strip()
    m = re.search(r"^provenance:\s*(\{.*\})\s*\Z", text, re.M | re.S)
    provenance = json.loads(m.group(1)) if m else {}
    shape = re.match(r"(\d+) planes x (?:(\d+) x (\d+)|any map), (\d+) global features "
                     r"\(encoder version (\d+)\)", fields["input"])
    trunk = re.match(r"(\d+) residual blocks x (\d+) channels", fields["trunk"])
    checksum = re.search(r"checksum ([0-9a-f]+)", fields["weights"])
    # "duel (the scenarios of its ...)" or "crossing, duel, pyramids, and any map whose ...":
    # the built-in scenarios it plays.
    plays = [name.strip() for name in re.split(r" \(|, and ", fields["plays"])[0].split(",")]
    if not (shape and trunk and checksum):
        fail(f"{net}: `nn info` lines not understood:\n{text}")
    return {
        "scenario": fields["scenario"],
        "encoder_version": int(shape.group(5)),
        "input": {"planes": int(shape.group(1)), "height": int(shape.group(2) or 0),
                  "width": int(shape.group(3) or 0), "globals": int(shape.group(4))},
        "plays": plays,
        "blocks": int(trunk.group(1)),
        "channels": int(trunk.group(2)),
        "value_hidden": int(fields["value head"].split()[0]),
        "parameters": int(fields["parameters"]),
        "weights_checksum": checksum.group(1),
    }, provenance


def run_figures(morne, run, generation):
    """CPU-hours, games and positions that made generation GENERATION of a `morne loop` run
    folder (what the run spent up to that network, not up to its stop), and its settings."""
    with open(os.path.join(run, "summary.json")) as f:
        summary = json.load(f)
    with open(os.path.join(run, "loop.json")) as f:
        settings = json.load(f)
    made = [g for g in summary["generations"] if g["generation"] == generation]
    if not made or "cpu_hours" not in made[0]:
        fail(f"{run}: summary.json has no CPU-hours for generation {generation}")
    # Generation g learned from the games of the networks before it: folders gen-000..g-1.
    games = sum(g.get("selfplay_games") or 0 for g in summary["generations"]
                if g["generation"] < generation)
    shards = []
    for k in range(generation):
        folder = os.path.join(run, "selfplay", f"gen-{k:03d}")
        if os.path.isdir(folder):
            shards += [os.path.join(folder, n) for n in sorted(os.listdir(folder))
                       if n.endswith(".h5")]
    positions = 0
    if shards:
        out = subprocess.run([morne, "data", "inspect", *shards], capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"{run}: morne data inspect failed: {out.stdout}{out.stderr}")
        positions = sum(int(n) for n in re.findall(r"^\s*positions:\s*(\d+) rows", out.stdout,
                                                   re.M))
    # A warm start's network is recorded as the run saw it, an absolute path: the card keeps
    # it relative to where the script runs (the checkout), or its file name, never a machine's path.
    init = settings.get("loop", {}).get("init")
    if init and os.path.isabs(init):
        relative = os.path.relpath(init)
        settings["loop"]["init"] = os.path.basename(init) if relative.startswith("..") else relative
    return {
        "cpu_hours": round(made[0]["cpu_hours"], 2),
        "selfplay_games": games,
        "selfplay_positions": positions,
        "settings": {k: settings[k] for k in ("loop", "network", "selfplay", "train")
                     if k in settings},
    }


def arena_run(folder):
    """The run.json of an arena folder."""
    try:
        with open(os.path.join(folder, "run.json")) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{folder}: not an arena report folder: {e}")


def match_figures(morne, folders):
    """One measured match, pooled: the first agent against the second over the arena folders
    `folders` (one pair, one scenario, two seeds or more, MIN_GAMES games or more)."""
    runs = [arena_run(folder) for folder in folders]
    first = runs[0]
    if len(first["agents"]) != 2 or len(first["scenarios"]) != 1:
        fail(f"{folders[0]}: a card's match is one pair of agents on one scenario")
    for folder, run in zip(folders, runs):
        if run["agents"] != first["agents"] or run["scenarios"] != first["scenarios"]:
            fail(f"{folder}: plays {run['agents']} on {run['scenarios']}, not "
                 f"{first['agents']} on {first['scenarios']} as {folders[0]}")
    for folder, run in zip(folders, runs):
        with open(os.path.join(folder, "games.csv")) as f:
            played = sum(1 for line in f if line.strip()) - 1
        if played != 2 * run["rounds"]:
            fail(f"{folder}: {played} of its {2 * run['rounds']} games played; finish it first "
                 f"(morne arena --resume --out {folder})")
    seeds = [run["seed"] for run in runs]
    if len(set(seeds)) != len(seeds):
        fail(f"{' '.join(folders)}: two arenas of one match play the same seed ({seeds})")
    if len(seeds) < MIN_SEEDS:
        fail(f"{folders[0]}: one seed ({seeds[0]}); a match is pooled over at least {MIN_SEEDS} "
             f"seeds, so that it holds on any seed: add an arena of the same agents with "
             f"another --seed")
    with tempfile.TemporaryDirectory(prefix="model-card-") as pooled:
        out = subprocess.run([morne, "arena", "rate", "--force", "--out", pooled,
                              "--anchor", first["agents"][0],
                              *[os.path.join(f, "games.csv") for f in folders]],
                             capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"morne arena rate failed: {out.stdout}{out.stderr}")
        with open(os.path.join(pooled, "summary.json")) as f:
            summary = json.load(f)
    scope = summary["scopes"][0]
    if scope["games"] < MIN_GAMES:
        fail(f"{' '.join(folders)}: {scope['games']} games; a match needs {MIN_GAMES} or more")
    pair = scope["pairs"][0]
    if pair["agent"] != 0:
        fail(f"{folders[0]}: the first pair is not the first agent's")
    opponent = scope["agents"][1]["elo"]  # relative to the first agent, the anchor
    total = pair["total"]
    duplicate = pair["duplicate"]
    agents = " ".join(first["agents"])
    return {
        "agent": first["agents"][0],
        "opponent": first["agents"][1],
        "scenario": first["scenarios"][0],
        "games": scope["games"],
        "wins": total["wins"],
        "draws": total["draws"],
        "losses": total["losses"],
        "elo": round(-opponent["rating"]),
        "elo_low95": round(-opponent["high95"]),
        "elo_high95": round(-opponent["low95"]),
        "rounds": {"won": duplicate["won"], "split": duplicate["split"],
                   "lost": duplicate["lost"]},
        "seeds": seeds,
        "commands": [f"morne arena --scenarios {run['scenarios'][0]} --rounds {run['rounds']} "
                     f"--seed {run['seed']} --agents \"{agents}\"" for run in runs],
    }


def main():
    # A termination unwinds like an interrupt, so that the pooling folder is removed.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--morne", required=True, help="the morne binary")
    p.add_argument("--net", required=True, help="the shipped network file (models/NAME.pt)")
    p.add_argument("--refresh", action="store_true",
                   help="rewrite the network file's fields of the existing card --out only")
    p.add_argument("--run", help="the morne loop run folder that trained it")
    p.add_argument("--config", help="the config file the run was made with")
    p.add_argument("--trained", action="append",
                   help="a command that trained it, in order (repeatable)")
    p.add_argument("--note", default="", help="what else a user should know")
    p.add_argument("--match", nargs="+", action="append", metavar="ARENA",
                   help="the arena folders of one match, one per seed (repeatable)")
    rewrite = p.add_mutually_exclusive_group()
    rewrite.add_argument("--matches-only", action="store_true",
                         help="replace the matches of the existing card --out only (and its "
                              "note, given --note)")
    rewrite.add_argument("--add-matches", action="store_true",
                         help="add the matches (--match) to those of the existing card --out, "
                              "each replacing one of the same agents on the same scenario (and "
                              "its note, given --note)")
    p.add_argument("--out", required=True, help="the card to write (models/NAME.json)")
    a = p.parse_args()
    if a.matches_only or a.add_matches:
        if not a.match:
            fail(f"{'--matches-only' if a.matches_only else '--add-matches'}: give the matches "
                 f"(--match)")
        card = read_card(a.out)
        measured = [match_figures(a.morne, folders) for folders in a.match]
        card["strength"] = measured if a.matches_only else merged_matches(card["strength"],
                                                                           measured)
        if a.note:
            card["note"] = a.note
        write_card(card, a.out)
        return
    if not a.refresh and not (a.run and a.config and a.trained and a.match):
        fail("give --run, --config, --trained and --match (or --refresh, or --matches-only)")

    with open(a.net, "rb") as f:
        data = f.read()
    info, provenance = network_info(a.morne, a.net)
    if a.refresh:
        card = read_card(a.out)
        card.update({"bytes": len(data), "crc32": zlib.crc32(data), **info})
        write_card(card, a.out)
        return
    card = {
        "format": FORMAT,
        "name": os.path.splitext(os.path.basename(a.net))[0],
        "file": os.path.basename(a.net),
        "bytes": len(data),
        "crc32": zlib.crc32(data),
        **info,
        "trained_by": provenance.get("trained_by", ""),
        "training": {
            "config": a.config,
            "commands": a.trained,
            "generation": provenance.get("generation"),
            "train_steps": provenance.get("steps"),
            "train_samples": provenance.get("samples"),
            **run_figures(a.morne, a.run, provenance.get("generation")),
        },
        "strength": [match_figures(a.morne, folders) for folders in a.match],
        "note": a.note,
    }
    write_card(card, a.out)


def same_match(a, b):
    """Whether two measured matches play the same two agents on the same scenario."""
    return all(a[k] == b[k] for k in ("agent", "opponent", "scenario"))


def merged_matches(kept, measured):
    """The card's matches `kept` with `measured` in: each replaces the kept match of the same
    agents on the same scenario, in its place, or comes after them."""
    merged = [next((m for m in measured if same_match(m, k)), k) for k in kept]
    return merged + [m for m in measured if not any(same_match(m, k) for k in kept)]


def read_card(path):
    """The existing card at `path`."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: no card to rewrite: {e}")


def write_card(card, out):
    """Writes `card` to `out` whole (a temporary file, then renamed)."""
    with open(out + ".tmp", "w") as f:
        json.dump(card, f, indent=2, sort_keys=False)
        f.write("\n")
    os.replace(out + ".tmp", out)
    print(f"model-card: {out}: {card['name']} ({card['bytes']} bytes, crc32 {card['crc32']}), "
          f"{len(card['strength'])} match(es)")


if __name__ == "__main__":
    main()
