"""morne.read_shards: self-play shards as numpy batches, every row once per pass in
expectation, the same batches from the same seed, and a clear error for a foreign file."""

import os
import subprocess
import sys

import numpy as np
import pytest

import morne


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    binary = os.environ.get("MORNE_BINARY")
    if not binary:
        pytest.skip("MORNE_BINARY (the morne executable) not given")
    folder = tmp_path_factory.mktemp("selfplay")
    subprocess.run([binary, "selfplay", "--scenario", "duel", "--agent", "mcts:sims=20",
                    "--games", "6", "--jobs", "2", "--out", str(folder), "--prefix", "t",
                    "--rows-per-shard", "200"], check=True, capture_output=True)
    return folder


def test_batches_hold_the_rows_of_the_shards(shards):
    scenario = morne.load_scenario("duel")
    stream = morne.ShardStream([str(shards)], seed=1)
    assert stream.scenario == "duel" and stream.shape == scenario.observation_shape
    assert stream.rows == stream.training_rows > 100
    batches = list(morne.read_shards(shards, batch_size=32, seed=1))
    assert len(batches) == stream.training_rows // 32
    b = batches[0]
    assert b["planes"].shape == (32,) + scenario.observation_shape
    assert b["planes"].dtype == np.float32 and b["planes"].flags.owndata is False
    assert b["globals"].shape == (32, scenario.globals_size)
    assert b["policy"].shape == b["legal"].shape == (32, scenario.num_distinct_actions)
    assert b["legal"].dtype == np.uint8
    assert np.all(b["policy"][b["legal"] == 0] == 0)  # the target is on legal actions only
    assert np.allclose(b["policy"].sum(axis=1), 1.0, atol=1e-4)
    assert np.all(np.abs(b["value"]) <= 1.0)
    assert b["control"].shape == (32,) + scenario.observation_shape[1:]
    assert np.all(b["planes"][:, 0].sum(axis=(1, 2)) == scenario.num_cells)  # the map plane


def test_the_same_seed_gives_the_same_batches(shards):
    def first_values(seed):
        return [b["value"].tolist() for b in morne.read_shards(shards, 16, seed=seed, batches=3)]
    assert first_values(4) == first_values(4)
    assert first_values(4) != first_values(5)


def test_validation_games_are_left_out(shards):
    everything = morne.ShardStream([str(shards)], seed=1)
    some = morne.ShardStream([str(shards)], seed=1, validation_permille=500)
    assert some.training_rows < everything.training_rows


def test_a_file_that_is_not_a_shard_is_refused(tmp_path):
    bad = tmp_path / "bad.h5"
    bad.write_bytes(b"not an hdf5 file" * 10)
    with pytest.raises((ValueError, OSError), match="bad.h5"):
        next(morne.read_shards([bad]))
    with pytest.raises((ValueError, OSError)):
        next(morne.read_shards([tmp_path / "none"]))


@pytest.mark.torch
def test_the_torch_example_trains_on_the_shards(shards):
    pytest.importorskip("torch")
    example = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "train_torch.py")
    out = subprocess.run([sys.executable, example, str(shards), "--steps", "60"], check=True,
                         capture_output=True, text=True)
    losses = [float(line.split()[-1]) for line in out.stdout.splitlines()
              if line.startswith("step")]
    assert len(losses) >= 2 and losses[-1] < losses[0]
