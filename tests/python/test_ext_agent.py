"""An agent of one's own in Python, outside morne: examples/random_bot.py speaks the engine
protocol, joins `morne arena` as `ext:cmd=...`, is ranked there, and plays the very games of the
built-in `random` with the same seeds (it draws as `random` does), so that its results are the
arena's own, not a look-alike."""

import csv
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOT = f"ext:cmd={sys.executable} {ROOT / 'examples' / 'random_bot.py'}"


def arena(binary, agents, out):
    """Runs a small arena of `agents` (a list of specs) on duel into `out`; its games by number."""
    quoted = " ".join(f"'{a}'" for a in agents)
    subprocess.run([binary, "arena", "--quiet", "--agents", quoted, "--scenarios", "duel",
                    "--rounds", "4", "--seed", "9", "--jobs", "2", "--out", str(out)],
                   check=True, capture_output=True, text=True)
    with open(out / "games.csv", newline="") as f:
        return {int(row["game"]): row for row in csv.DictReader(f)}


def test_a_python_bot_over_the_protocol_plays_the_built_in_random_games(tmp_path):
    binary = os.environ.get("MORNE_BINARY")
    if not binary:
        pytest.skip("MORNE_BINARY (the morne executable) not given")
    bot = arena(binary, ["rule", BOT], tmp_path / "bot")
    built_in = arena(binary, ["rule", "random"], tmp_path / "random")
    assert sorted(bot) == sorted(built_in) == list(range(8))
    same = ("winner", "blue_vp", "orange_vp", "level", "plies", "blue_decisions",
            "orange_decisions", "blue_steps", "blue_reversals", "orange_steps",
            "orange_reversals")
    for number, row in bot.items():
        assert [row[c] for c in same] == [built_in[number][c] for c in same], number
        assert {row["blue"], row["orange"]} == {"rule", BOT}
    # Ranked like any agent: the rule agent wins every game against it.
    ratings = (tmp_path / "bot" / "ratings.csv").read_text()
    assert ratings.index('"rule"') < ratings.index(BOT.split(" ")[0])
    assert all(row["winner"] == ("blue" if row["blue"] == "rule" else "orange")
               for row in bot.values())
