"""The module under threads, None, bad actions, Ctrl-C and damaged files: errors, never a crash
or a hang. What could hang or crash runs in a child interpreter under a time limit, so that a
regression fails the test instead of stopping the suite."""

import os
import signal
import subprocess
import sys
import time

import pytest

import morne
from morne import envs


def run_child(code, timeout=60):
    """Runs `code` in a fresh interpreter with this module's path; returns (status, output)."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=timeout, env=dict(os.environ))
    return result.returncode, result.stdout + result.stderr


def test_threads_make_their_first_numpy_calls_at_once():
    # Each thread's first call returns numpy arrays: they used to deadlock 10 times in 10.
    code = """
import threading, morne
sc = morne.load_scenario("duel")
def first_calls():
    s = sc.new_game()
    s.observation(); s.legal_actions_mask()
    v = morne.VectorGame(sc, 2); v.reset(); v.step([0, 0])
threads = [threading.Thread(target=first_calls) for _ in range(4)]
[t.start() for t in threads]; [t.join() for t in threads]
print("done")
"""
    for _ in range(3):
        status, output = run_child(code, timeout=60)
        assert status == 0 and "done" in output, output


def test_one_agent_or_vector_game_shared_by_threads_takes_turns():
    code = """
import threading, morne
sc = morne.load_scenario("duel")
agent = morne.Agent("mcts:sims=200", seed=3)
games = morne.VectorGame(sc, 8, threads=2)
games.reset()
state = sc.new_game()
def use():
    for _ in range(5):
        agent.decide(state)
        games.step([0] * 8)
threads = [threading.Thread(target=use) for _ in range(3)]
[t.start() for t in threads]; [t.join() for t in threads]
print("done")
"""
    status, output = run_child(code, timeout=120)
    assert status == 0 and "done" in output, output


def test_a_built_in_agent_object_plays_the_arena_as_its_spec(tmp_path):
    agent = morne.Agent("mcts:sims=50")
    summary = morne.arena([agent, "rule"], "duel", rounds=2, jobs=2, out=tmp_path / "a")
    assert summary["agents"][0].startswith("mcts:sims=50,")
    results = summary["scopes"][0]["agents"][0]["results"]
    assert results["wins"] + results["draws"] + results["losses"] == 4


def test_none_where_a_scenario_goes_is_a_type_error():
    with pytest.raises(TypeError):
        morne.VectorGame(None, 4)
    with pytest.raises(TypeError):
        morne.State.from_json(None, "{}")
    with pytest.raises(TypeError):
        morne.Scenario.new_game(None)


def test_bad_thread_counts_and_actions_are_refused():
    sc = morne.load_scenario("duel")
    for threads in (0, -5, 10 ** 6):
        with pytest.raises(ValueError, match="threads"):
            morne.VectorGame(sc, 2, threads=threads)
    env = envs.SingleAgentEnv("duel", opponent="random")
    _, info = env.reset(seed=1)
    action = int(info["action_mask"].nonzero()[0][0])
    with pytest.raises(TypeError, match="integer"):
        env.step(action + 0.5)
    env.step(action)


def test_ctrl_c_stops_a_long_decision():
    code = """
import morne, time
state = morne.load_scenario("duel").new_game()
agent = morne.Agent("mcts:ms=600000")
print("searching", flush=True)
t0 = time.time()
try:
    agent.decide(state)
except KeyboardInterrupt:
    print("interrupted after %.1f s" % (time.time() - t0), flush=True)
"""
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    assert child.stdout.readline().strip() == "searching"
    time.sleep(1.0)
    sent = time.time()
    child.send_signal(signal.SIGINT)
    try:
        output, _ = child.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail("decide() went on after Ctrl-C")
    assert "interrupted" in output, output
    assert time.time() - sent < 5


def test_damaged_shards_are_refused_not_crashed_on(tmp_path):
    binary = os.environ.get("MORNE_BINARY")
    if not binary:
        pytest.skip("MORNE_BINARY (the morne executable) not given")
    folder = tmp_path / "selfplay"
    subprocess.run([binary, "selfplay", "--scenario", "duel", "--agent", "random", "--games", "2",
                    "--out", str(folder), "--prefix", "t"], check=True, capture_output=True)
    shard = next(folder.glob("*.h5"))
    good = shard.read_bytes()
    code = """
import sys, morne
refused = read = 0
for path in sys.argv[1:]:
    try:
        next(morne.read_shards([path], batch_size=8))
        read += 1
    except (ValueError, OSError) as e:
        assert path in str(e), str(e)
        refused += 1
print("read", read, "refused", refused)
"""
    paths = []
    for at in list(range(0, min(len(good), 3000), 24)) + list(range(3000, len(good), len(good) // 40)):
        damaged = bytearray(good)
        for k in range(at, min(len(damaged), at + 4)):
            damaged[k] ^= 0xFF
        path = tmp_path / f"flip-{at}.h5"
        path.write_bytes(bytes(damaged))
        paths.append(str(path))
    result = subprocess.run([sys.executable, "-c", code] + paths, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "refused" in result.stdout
