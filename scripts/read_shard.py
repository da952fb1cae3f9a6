#!/usr/bin/python3
"""Reads a morne self-play shard with h5py (Debian: python3-h5py) and prints what a trainer
needs: the attributes, the shapes, and a few checks on the targets. The schema is in
docs/training-data.md.

    /usr/bin/python3 scripts/read_shard.py selfplay/duel-20261130-071721-676f-0000.h5

`--expectations` prints the datasets this script expects as JSON; the tests compare them with
the schema morne declares (`morne data schema`).
"""
import json
import sys

import h5py
import numpy as np

FORMAT, VERSIONS = "morne-selfplay", (1, 2, 3, 4, 5)

# Every dataset: its element type and its number of dimensions (rows first), and the format
# version that added it (older files lack it).
SINCE = {"positions/search_value": 2, "positions/margin": 3, "positions/control": 3,
         "positions/short_value": 3, "games/handicap_half": 4, "positions/teacher_value": 5}
DATASETS = {
    "positions/planes": ("float32", 4),   # [rows, planes, height, width]
    "positions/globals": ("float32", 2),  # [rows, globals]
    "positions/policy": ("float32", 2),   # [rows, policy size]: the search's target
    "positions/legal": ("uint8", 2),      # [rows, policy size]
    "positions/value": ("float32", 1),    # [rows]: final result for the side to move
    "positions/search_value": ("float32", 1),  # [rows]: the search's root value (version 2)
    "positions/teacher_value": ("float32", 1),  # [rows]: a teacher search's value (version 5)
    "positions/margin": ("float32", 1),   # [rows]: final score difference, side to move's (version 3)
    "positions/control": ("float32", 3),  # [rows, height, width]: final control (version 3)
    "positions/short_value": ("float32", 2),  # [rows, 3]: short-term values (version 3)
    "positions/game": ("uint64", 1),      # [rows]: game id of each row
    "positions/move": ("int32", 1),
    "positions/phase": ("uint8", 1),
    "positions/side": ("uint8", 1),
    "games/id": ("uint64", 1),
    "games/seed": ("uint64", 1),
    "games/winner": ("int8", 1),
    "games/vp_blue": ("int16", 1),
    "games/vp_orange": ("int16", 1),
    "games/handicap_half": ("int8", 1),  # the scenario's handicap, half VP (version 4)
    "games/level": ("int8", 1),
    "games/end": ("uint8", 1),
    "games/plies": ("int32", 1),
    "games/decisions": ("int32", 1),
    "games/positions": ("int32", 1),
}


def read(path):
    with h5py.File(path, "r") as f:
        if f.attrs.get("format") != FORMAT:
            raise SystemExit(f"{path}: not a morne self-play shard")
        version = int(f.attrs["format_version"])
        if version not in VERSIONS:
            raise SystemExit(f"{path}: format version {version}, this script reads {VERSIONS}")
        for name, (dtype, rank) in DATASETS.items():
            if version < SINCE.get(name, 1):
                continue  # an older file has none
            d = f[name]
            if d.dtype != np.dtype(dtype) or d.ndim != rank:
                raise SystemExit(f"{path}: {name} is {d.dtype} of {d.ndim} dimensions, expected {dtype} of {rank}")
        pos, games = f["positions"], f["games"]
        planes = pos["planes"][:]      # float32 [rows, planes, height, width]
        globals_ = pos["globals"][:]   # float32 [rows, globals]
        policy = pos["policy"][:]      # float32 [rows, policy size]: the search's target
        legal = pos["legal"][:]        # uint8   [rows, policy size]
        value = pos["value"][:]        # float32 [rows]: final result for the side to move
        game = pos["game"][:]          # uint64  [rows]: game id of each row
        rows = planes.shape[0]
        print(f"{path}: scenario {f.attrs['scenario']}, encoder version {int(f.attrs['encoder_version'])}")
        print(f"  rows {rows}: planes {planes.shape[1:]}, globals {globals_.shape[1]}, policy {policy.shape[1]}")
        print(f"  games {games['id'].shape[0]}: winners {np.bincount(games['winner'][:] + 1, minlength=3).tolist()}"
              " (draw, blue, orange)")
        assert np.isfinite(planes).all() and np.isfinite(globals_).all()
        assert np.allclose(policy.sum(axis=1), 1.0, atol=1e-4), "policy targets sum to 1"
        assert not (policy[legal == 0] > 0).any(), "no policy mass on illegal actions"
        assert set(np.unique(value)).issubset({-1.0, 0.0, 1.0})
        assert int(games["positions"][:].sum()) == rows == game.shape[0]
        print(f"  value targets: mean {value.mean():+.3f}; legal actions per row: mean {legal.sum(axis=1).mean():.1f}")
        print("  ok")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    if sys.argv[1] == "--expectations":
        print(json.dumps({name: {"type": t, "rank": r} for name, (t, r) in DATASETS.items()}))
        sys.exit(0)
    for p in sys.argv[1:]:
        read(p)
