#!/usr/bin/env python3
"""morne serve against bad input and load, over real sockets: files over HTTP, the engine
protocol over WebSocket, malformed and oversized messages, binary frames, foreign origins, too
many games, and the latency of one game's requests while another game's AI searches.

    tests/server/server_test.py build/morne [GAMES]

GAMES (default 32) games are held open at once in the load check. Prints the measured figures
(the server's memory from /proc); exits non-zero on the first failure."""

import os
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ws_client  # noqa: E402


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def start_server(morne, *options, **popen_args):
    proc = subprocess.Popen([morne, "serve", "--port", "0", *options], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **popen_args)
    for _ in range(3):
        line = proc.stdout.readline()
        if "http://" in line:
            port = int(line.split("http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
            return proc, port
    proc.kill()
    raise AssertionError("morne serve printed no address")


def stop_server(proc):
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    check(proc.returncode == 0, f"morne serve exited {proc.returncode}: {out}")
    check("stopped:" in out, "no closing line: " + out)
    return out


def test_http(port):
    status, head, body = ws_client.http_get(port, "/")
    check(status == 200 and b"<html" in body.lower(), f"/ gave {status}")
    check("text/html" in head, "index is not HTML")
    for path in ["/nope.js", "/../CMakeLists.txt", "/%2e%2e/etc/passwd", "/web/index.html"]:
        status, _, _ = ws_client.http_get(port, path)
        check(status == 404, f"{path} gave {status}")
    status, _, _ = ws_client.http_get(port, "/", extra="X-Big: " + "x" * 20000 + "\r\n")
    check(status == 400, f"an oversized head gave {status}")
    status, _, _ = ws_client.http_get(port, "/ws")  # not an upgrade: no such file
    check(status == 404, f"/ws without an upgrade gave {status}")


def test_bad_messages(port, max_bytes):
    g = ws_client.Game(port)
    check(g.call({"cmd": "load", "scenario": "duel"})["ok"], "load failed")
    g.send_frame(b'{"cmd": "legal"')
    r = g.recv()
    check(r["error"]["code"] == "parse_error", f"malformed JSON gave {r}")
    g.send_frame(b"x" * (max_bytes + 10))
    r = g.recv()
    check(r["error"]["code"] == "bad_request" and "max-message-bytes" in r["error"]["message"],
          f"an oversized message gave {r}")
    g.send_frame(b"x" * (20 << 20))  # past Beast's own 16 MiB limit too
    r = g.recv()
    check(r["error"]["code"] == "bad_request" and "max-message-bytes" in r["error"]["message"],
          f"a 20 MiB message gave {r}")
    g.send_frame(b'{"cmd":"legal"}', opcode=0x2)
    r = g.recv()
    check(r["error"]["code"] == "bad_request" and "text" in r["error"]["message"],
          f"a binary frame gave {r}")
    r = g.call({"cmd": "load", "path": "/etc/hostname"})
    check(r["error"]["code"] == "bad_request" and "no files" in r["error"]["message"],
          f"a file read gave {r}")
    r = g.call({"cmd": "load", "scenario": "/etc/hostname"})
    check(r["error"]["code"] == "bad_request", f"a scenario path gave {r}")
    r = g.call({"cmd": "legal", "id": 7})
    check(r["ok"] and r["id"] == 7 and r["count"] > 0, "the game did not go on")
    # During a search, a refused message is answered in its turn, after the search's reply.
    g.send({"cmd": "genmove", "agent": "mcts:sims=10000000", "id": "search"})
    g.send_frame(b"x" * (max_bytes + 10))
    g.send({"cmd": "stop", "id": "stop"})
    order = [g.recv() for _ in range(3)]
    check([r.get("id") for r in order] == ["search", None, "stop"] and
          order[1]["error"]["code"] == "bad_request", f"replies out of order: {order}")
    # A search asking more threads and memory than the server allows gets its limits (256 MB
    # over 2 threads: node pools of at most 256 MiB / 40 B / 2).
    r = g.call({"cmd": "genmove", "agent": "mcts:sims=50,threads=16,nodes=100000000"})
    params = dict(kv.split("=") for kv in r["agent"].split(":", 1)[1].split(","))
    check(params["threads"] == "2" and int(params["nodes"]) <= (256 << 20) // 40 // 2,
          f"the limits were not applied: {r['agent']}")
    # A shipped model is echoed by its name, never by where the server keeps it, and the
    # echoed spec is one the server takes back.
    r = g.call({"cmd": "genmove", "agent": "az:sims=2,model=duel"})
    check(r.get("ok") and "/" not in r["agent"] and "model=duel" in r["agent"],
          f"genmove echoed {r.get('agent', r)}")
    again = g.call({"cmd": "genmove", "agent": r["agent"]})
    check(again.get("ok"), f"the echoed spec was refused: {again}")
    g.close()
    try:
        ws_client.Game(port, origin="http://evil.example")
        raise AssertionError("a foreign origin was let in")
    except ws_client.HandshakeRefused as e:
        check(e.status == 403, f"a foreign origin gave {e.status}")


def test_too_many_sessions(port, max_sessions):
    games = [ws_client.Game(port) for _ in range(max_sessions)]
    for g in games:
        check(g.call({"cmd": "protocol"})["version"] == 3, "protocol")
    try:
        ws_client.Game(port)
        raise AssertionError(f"game {max_sessions + 1} was let in")
    except ws_client.HandshakeRefused as e:
        check(e.status == 503 and "too_many_sessions" in e.body, f"refusal: {e.status} {e.body}")
    games.pop().close()
    for _ in range(50):  # the server notices the close
        try:
            g = ws_client.Game(port)
            break
        except ws_client.HandshakeRefused:
            time.sleep(0.05)
    else:
        raise AssertionError("a freed place was not given again")
    check(g.call({"cmd": "protocol"})["ok"], "the new game")
    games.append(g)
    for g in games:
        g.close()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def test_latency_while_searching(port, searchers):
    """`searchers` games think at once (genmove, cut by max-search-ms); another game's requests
    are timed meanwhile, then without them."""
    thinking = []
    for _ in range(searchers):
        g = ws_client.Game(port)
        g.call({"cmd": "load", "scenario": "crossing"})
        thinking.append(g)
    player = ws_client.Game(port)
    player.call({"cmd": "load", "scenario": "crossing"})

    def timed(n):
        times = []
        for i in range(n):
            t0 = time.perf_counter()
            r = player.call({"cmd": "legal", "id": i})
            times.append((time.perf_counter() - t0) * 1000)
            check(r["ok"] and r["id"] == i, "legal failed")
        return times

    quiet = timed(100)
    t0 = time.perf_counter()
    for g in thinking:
        g.send({"cmd": "genmove", "agent": "mcts:sims=10000000,threads=2"})
    busy = timed(100)
    replies = [g.recv() for g in thinking]
    searched = time.perf_counter() - t0
    print("searches:", [(r.get("seconds"), r.get("simulations")) for r in replies])
    for r in replies:
        check(r["ok"] and r["simulations"] > 0, f"a search failed: {r}")
        check(r["seconds"] < 3.0, f"a search ran {r['seconds']} s past max-search-ms 1500")
    for g in thinking + [player]:
        g.close()
    print(f"latency of `legal` (crossing), ms: median {percentile(quiet, 0.5):.2f}, "
          f"p95 {percentile(quiet, 0.95):.2f} alone; median {percentile(busy, 0.5):.2f}, "
          f"p95 {percentile(busy, 0.95):.2f}, max {max(busy):.2f} while {searchers} AIs search "
          f"({searched:.1f} s, {sum(r['simulations'] for r in replies)} simulations)")
    check(percentile(busy, 0.95) < 250, "the server stalls while AIs search")


def resident_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def test_many_games(port, count, pid):
    """`count` games open at once, each playing a few requests."""
    games = []
    t0 = time.perf_counter()
    for _ in range(count):
        g = ws_client.Game(port)
        g.call({"cmd": "load", "scenario": "duel"})
        games.append(g)
    errors = []

    def play(g):
        try:
            for _ in range(10):
                r = g.call({"cmd": "genmove", "agent": "rule", "play": True})
                if not r["ok"]:
                    errors.append(r)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    held = resident_mb(pid)
    for g in games:
        g.close()
    check(not errors, f"errors: {errors[:3]}")
    print(f"{count} games held at once, 10 rule moves each: {time.perf_counter() - t0:.2f} s, "
          f"server resident memory {held:.0f} MB")


def test_one_message_limit(morne):
    """max-message-bytes cannot promise more than the engine's own 4 MiB line limit."""
    r = subprocess.run([morne, "serve", "--port", "0", "--max-message-bytes", str(8 << 20)],
                       capture_output=True, text=True, timeout=30)
    check(r.returncode == 2 and "max-message-bytes" in r.stderr + r.stdout,
          f"a limit over 4 MiB was accepted: {r.returncode} {r.stdout} {r.stderr}")


def main():
    morne = sys.argv[1]
    test_one_message_limit(morne)
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 32
    max_bytes = 4096
    proc, port = start_server(morne, "--max-sessions", str(games + 8), "--max-message-bytes",
                              str(max_bytes), "--max-search-ms", "1500")
    try:
        test_http(port)
        test_bad_messages(port, max_bytes)
        test_many_games(port, games, proc.pid)
        test_latency_while_searching(port, 2)
    finally:
        out = stop_server(proc)
    print(out.strip().splitlines()[-1])
    proc, port = start_server(morne, "--max-sessions", "3")
    try:
        test_too_many_sessions(port, 3)
    finally:
        stop_server(proc)
    print("server: all checks passed")


if __name__ == "__main__":
    main()
