#!/usr/bin/env python3
"""morne serve against clients that try to make it hold too much or lock others out, over real
sockets (docs/reliability.md, "The server's limits"): a client that never reads its replies,
requests piled up behind a search, idle games holding every place, a page of another site
reaching the server by a name of its own (DNS rebinding), one address opening connections
until the server runs out of file descriptors, and the memory left after games close.

    tests/server/abuse_test.py build/morne [--no-memory-checks]

--no-memory-checks: the memory figures are printed, not checked (a sanitizer's allocator keeps
what is freed).

Prints the server's memory (from /proc) and availability figures; exits non-zero on the first
failure."""

import json
import os
import resource
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ws_client  # noqa: E402
from server_test import check, resident_mb, start_server, stop_server  # noqa: E402


def cpu_seconds(pid):
    """User + system CPU time of process `pid` so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def send_until_blocked(sock, frames, seconds):
    """Sends `frames` in a thread; returns (thread, counter) where counter[0] counts whole
    frames sent. The thread blocks when the server stops reading."""
    counter = [0]

    def run():
        try:
            for f in frames:
                sock.sendall(f)
                counter[0] += 1
        except OSError:
            pass

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    return t, counter


def test_non_reading_client(port, pid, idle_s):
    """Requests whose replies are never read: the server stops reading once 4 MiB wait, and
    closes the game after idle-timeout-s without a message read."""
    before = resident_mb(pid)
    g = ws_client.Game(port)
    g.call({"cmd": "load", "scenario": "crossing"})
    # 1 KB requests (an id that long): 30 MB in all, more than the sockets' buffers hold.
    one = ws_client.client_frame(b'{"cmd":"scenario","id":"' + b"i" * 1000 + b'"}')
    reply_bytes = len(json.dumps(g.call({"cmd": "scenario"})))
    t0 = time.monotonic()
    t, sent = send_until_blocked(g.sock, [one] * 30000, idle_s / 2)
    held = resident_mb(pid)
    print(f"non-reading client: {sent[0]} of 30000 `scenario` requests of 1 KB sent (replies of "
          f"about {reply_bytes} bytes) before the server stopped reading; server memory "
          f"{before:.0f} -> {held:.0f} MB")
    check(t.is_alive(), "the server read 30,000 requests whose replies were never read")
    check_memory(held - before < 64,
                 f"a non-reading client made the server grow {held - before:.0f} MB")
    t.join(idle_s + 60)  # a sanitizer's build answers the requests taken first slowly
    closed = time.monotonic() - t0
    check(not t.is_alive(), "a client that read nothing was not closed")
    print(f"  closed by the server {closed:.1f} s after it stopped reading (idle-timeout-s "
          f"{idle_s})")
    g.sock.close()
    other = ws_client.Game(port)
    check(other.call({"cmd": "protocol"})["ok"], "another game after the non-reading client")
    other.close()


def search_growth_mb(port, pid):
    """What a 4 s search's own tree adds to the server (more the faster the machine: 60 to 70 MB
    on an idle 2-core machine, less beside other tests), measured at its end."""
    g = ws_client.Game(port)
    g.call({"cmd": "load", "scenario": "crossing"})
    before = resident_mb(pid)
    g.sock.settimeout(120)
    check(g.call({"cmd": "genmove", "agent": "mcts:sims=10000000,ms=4000"})["ok"], "a search")
    grown = resident_mb(pid) - before
    g.close()
    time.sleep(1)
    return grown


def test_requests_during_search(port, pid):
    """1 MB requests sent during a 4 s search: at most 4 MiB of them wait, besides the tree."""
    tree = search_growth_mb(port, pid)
    g = ws_client.Game(port)
    g.call({"cmd": "load", "scenario": "crossing"})
    before = resident_mb(pid)
    g.send({"cmd": "genmove", "agent": "mcts:sims=10000000,ms=4000", "id": "search"})
    big = ws_client.client_frame(b'{"cmd":"legal","pad":"' + b"x" * 1000000 + b'"}')
    t, sent = send_until_blocked(g.sock, [big] * 200, 3.0)
    held = resident_mb(pid)
    taken = sent[0]
    print(f"during a search: {taken} of 200 requests of 1 MB sent before the server stopped "
          f"reading; server memory {before:.0f} -> {held:.0f} MB")
    check(t.is_alive(), "the server took 200 MB of requests during one search")
    print(f"  the same search alone grew it {tree:.0f} MB")
    check_memory(held - before < tree + 32,
                 f"requests waiting for a search grew the server {held - before:.0f} MB, "
                 f"the search alone {tree:.0f} MB")
    g.sock.settimeout(120)
    first = g.recv()
    check(first.get("id") == "search" and first["ok"], f"the search's reply: {first}")
    for i in range(200):  # the rest are read and refused (unknown key) in their turn
        r = g.recv()
        check(not r["ok"] and r["error"]["code"] == "bad_request", f"request {i}: {r}")
    t.join(30)
    check(not t.is_alive(), "the sender still blocked after every reply")
    g.close()


def test_foreign_host(port):
    """A page of another site whose name leads here (DNS rebinding) is refused."""
    evil = f"evil.example:{port}"
    try:
        ws_client.Game(port, host_header=evil, origin=f"http://{evil}")
        raise AssertionError("a foreign Host and Origin were let in")
    except ws_client.HandshakeRefused as e:
        check(e.status == 403 and "allowed-hosts" in e.body, f"a foreign Host: {e.status} {e.body}")
    status, _, body = ws_client.http_get(port, "/", host_header=evil)
    check(status == 403, f"a file for a foreign Host gave {status}")
    # A Host that is not UTF-8 is quoted in the refusal (found by the socket fuzzer: it threw).
    status, _, body = ws_client.http_get(port, "/", host_header="\udcff\udcfe.example")
    check(status == 403, f"a Host that is not UTF-8 gave {status}")
    for name in [f"localhost:{port}", f"LOCALHOST:{port}", f"127.0.0.1:{port}", "127.0.0.1",
                 f"morne.lan:{port}"]:  # morne.lan: --allowed-hosts
        g = ws_client.Game(port, host_header=name, origin=f"http://{name}")
        check(g.call({"cmd": "protocol"})["ok"], f"Host {name}")
        g.close()
    for name, origin in [(f"127.0.0.1:{port}", f"http://evil.example:{port}"),
                         ("", None), (f"[::1]:{port}", None), (f"127.0.0.1.evil:{port}", None)]:
        try:
            ws_client.Game(port, host_header=name, origin=origin)
            raise AssertionError(f"Host {name!r} Origin {origin} was let in")
        except ws_client.HandshakeRefused as e:
            check(e.status in (400, 403), f"Host {name!r}: {e.status}")


def test_idle_games(port, places, idle_s):
    """Idle games holding every place are closed after idle-timeout-s; the refusal says when."""
    games = []
    t0 = time.monotonic()
    while len(games) < places:  # the places of earlier checks' games are freed
        try:
            games.append(ws_client.Game(port))
        except ws_client.HandshakeRefused:
            check(time.monotonic() - t0 < 10, "earlier games still hold their places")
            time.sleep(0.1)
    t0 = time.monotonic()
    try:
        ws_client.Game(port)
        raise AssertionError("a game beyond max-sessions was let in")
    except ws_client.HandshakeRefused as e:
        retry = [int(line.split(":")[1]) for line in e.head.split("\r\n")
                 if line.lower().startswith("retry-after:")]
        check(e.status == 503 and "retry in" in e.body and retry and 1 <= retry[0] <= idle_s,
              f"the refusal says when to retry: {e.status} {e.head} {e.body}")
    time.sleep(idle_s / 2)
    games[0].call({"cmd": "protocol"})  # this one is not idle: its deadline starts again
    for g in games[1:]:
        g.sock.settimeout(idle_s + 10)
        try:
            g.recv()
            raise AssertionError("an idle game got a message")
        except ConnectionError:
            pass
        check("idle" in getattr(g, "close_reason", ""), "the close frame says why")
    closed = time.monotonic() - t0
    check(idle_s - 0.5 <= closed <= idle_s + 3, f"idle games closed after {closed:.1f} s")
    check(games[0].call({"cmd": "protocol"})["ok"], "the active game was kept")
    # A client that answers the close frame but keeps its socket open is cut off 2 s later.
    while True:
        try:
            newcomer = ws_client.Game(port)
            break
        except ws_client.HandshakeRefused:
            check(time.monotonic() - t0 < idle_s + 3, "no place once the idle games were closed")
            time.sleep(0.05)
    check(newcomer.call({"cmd": "protocol"})["ok"], "a newcomer after the idle games left")
    check(games[0].call({"cmd": "protocol"})["ok"], "the active game was kept")
    print(f"{places - 1} idle games closed after {closed:.1f} s (idle-timeout-s {idle_s}); the "
          f"refusal said to retry in {retry[0]} s")
    newcomer.close()
    games[0].close()


def test_connections_per_peer(port, pid, per_peer):
    """Half-open connections: one address holds at most `per_peer`; many addresses run the
    server out of descriptors, and it waits instead of spinning, then serves again."""
    held = []
    for _ in range(per_peer + 20):
        s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0))
        s.sendall(b"GET / HTTP/1.1\r\n")  # a head never finished
        held.append(s)
    time.sleep(0.5)
    closed = 0
    for s in held[per_peer:]:
        s.settimeout(2)
        try:
            closed += s.recv(1) == b""
        except (socket.timeout, ConnectionResetError):
            closed += 1
    check(closed == 20, f"{closed} of 20 connections beyond max-connections-per-peer closed")
    g = ws_client.Game(port)  # another address still plays
    check(g.call({"cmd": "protocol"})["ok"], "another peer while one holds its most")
    g.close()
    # Other addresses until the server has no descriptor left (it runs with 256).
    for peer in range(3, 9):
        for _ in range(per_peer):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                             source_address=(f"127.0.0.{peer}", 0))
                s.sendall(b"GET / HTTP/1.1\r\n")
                held.append(s)
            except OSError:
                break
    time.sleep(0.5)
    c0 = cpu_seconds(pid)
    time.sleep(3)
    busy = (cpu_seconds(pid) - c0) / 3
    for s in held:
        s.close()
    t0 = time.monotonic()
    while True:
        try:
            g = ws_client.Game(port, timeout=5)
            break
        except (OSError, ws_client.HandshakeRefused, ConnectionError):
            check(time.monotonic() - t0 < 10, "the server did not serve again")
            time.sleep(0.1)
    back = time.monotonic() - t0
    check(g.call({"cmd": "protocol"})["ok"], "a game once the connections closed")
    g.close()
    print(f"{len(held)} half-open connections from 7 addresses (server limited to 256 "
          f"descriptors): {busy * 100:.0f}% of a core while out of descriptors; served again "
          f"{back:.2f} s after they closed")
    check(busy < 0.3, f"the accept loop used {busy * 100:.0f}% of a core")


def test_memory_returned(port, pid):
    """A long search's trees go back to the system when its game closes."""
    base = resident_mb(pid)
    games = []
    for _ in range(2):
        g = ws_client.Game(port)
        g.call({"cmd": "load", "scenario": "crossing"})
        g.send({"cmd": "genmove", "agent": "mcts:sims=10000000,ms=3000,threads=2"})
        games.append(g)
    for g in games:
        g.sock.settimeout(60)
        check(g.recv()["ok"], "a search")
    peak = resident_mb(pid)
    for g in games:
        g.close()
    time.sleep(1)
    after = resident_mb(pid)
    print(f"two 3 s searches: server memory {base:.0f} MB before, {peak:.0f} MB after them, "
          f"{after:.0f} MB once their games closed")
    check_memory(after - base < 50, f"{after - base:.0f} MB kept after the games closed")


def limit_descriptors():
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))


MEMORY_CHECKS = "--no-memory-checks" not in sys.argv
# A sanitizer's build answers and reads so slowly under load that a client reading its replies
# at full speed can fall 3 s behind: its games get a longer idle timeout.
IDLE_S = 10 if "--sanitizer" in sys.argv else 3


def check_memory(condition, message):
    if MEMORY_CHECKS:
        check(condition, message)


def main():
    morne = sys.argv[1]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    proc, port = start_server(morne, "--max-sessions", "4", "--idle-timeout-s", str(IDLE_S),
                              "--max-connections-per-peer", "40", "--allowed-hosts",
                              "morne.lan, other.lan", "--max-search-ms", "10000",
                              preexec_fn=limit_descriptors)
    try:
        test_foreign_host(port)
        test_non_reading_client(port, proc.pid, IDLE_S)
        test_requests_during_search(port, proc.pid)
        test_memory_returned(port, proc.pid)
        test_idle_games(port, 4, IDLE_S)
        test_connections_per_peer(port, proc.pid, 40)
    finally:
        out = stop_server(proc)
    print(out.strip().splitlines()[-1])
    print("server abuse: all checks passed")


if __name__ == "__main__":
    main()
