#!/usr/bin/env python3
"""A socket-level fuzzer of morne serve's HTTP head parsing and WebSocket framing: mutated
request heads (upgrades included) and mutated frames (reserved opcodes and bits, unmasked,
lengths that lie, fragments, oversized or fragmented control frames, bad UTF-8, close codes)
sent over real sockets. Every case is drawn from one seed, so a failure is reproduced by its
seed and case number. After every 50 cases a fresh game must still be served; at the end the
server must still run, have logged no internal error, and stop cleanly.

    tests/server/fuzz_test.py build/morne [CASES] [SEED]
"""

import os
import random
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ws_client  # noqa: E402
from server_test import check, resident_mb, start_server, stop_server  # noqa: E402


def http_head(rng, port):
    """A request head, valid or upgrade, then mutated."""
    lines = [rng.choice(["GET / HTTP/1.1", "GET /ws HTTP/1.1", "HEAD /app.js HTTP/1.1",
                         "POST / HTTP/1.1", "GET /ws HTTP/1.0", "OPTIONS * HTTP/1.1"]),
             f"Host: 127.0.0.1:{port}"]
    if rng.random() < 0.5:
        lines += ["Upgrade: websocket", "Connection: Upgrade",
                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
    extras = ["Content-Length: 5", "Transfer-Encoding: chunked", "Content-Length: -1",
              "Content-Length: 99999999999999999999", "Origin: null", f"Host: other:{port}",
              "Sec-WebSocket-Version: 8", "Sec-WebSocket-Key: !!", "Expect: 100-continue",
              "X: " + "y" * rng.randint(0, 9000), "Connection: keep-alive, Upgrade",
              "Sec-WebSocket-Extensions: permessage-deflate"]
    for _ in range(rng.randint(0, 3)):
        lines.insert(rng.randint(1, len(lines)), rng.choice(extras))
    data = bytearray(("\r\n".join(lines) + "\r\n\r\n").encode())
    for _ in range(rng.choice([0, 0, 1, 2, 8])):
        kind = rng.randrange(4)
        at = rng.randrange(len(data))
        if kind == 0:
            data[at] = rng.randrange(256)
        elif kind == 1:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif kind == 2:
            del data[at:at + rng.randint(1, 8)]
        else:
            data[at:at] = rng.choice([b"\r\n", b"\n", b"\0", b":", b" ", b"\r\n\r\n"])
    return bytes(data)


def ws_frame(rng):
    """One frame from a client, valid or broken."""
    fin = 0x80 if rng.random() < 0.8 else 0
    rsv = rng.choice([0, 0, 0, 0x40, 0x20, 0x10])
    opcode = rng.choice([0x1, 0x1, 0x1, 0x0, 0x2, 0x8, 0x9, 0xA, 0x3, 0x7, 0xB, 0xF])
    payload = rng.choice([
        b'{"cmd":"legal"}', b'{"cmd":"protocol","id":1}', b"\xff\xfe\xfd", b"",
        b'{"cmd":"genmove","agent":"random"}', bytes(rng.randrange(256) for _ in range(130)),
        b"\x03\xe8bye", b"\x03", b"\x00\x00", b"x" * rng.randint(0, 70000)])
    masked = rng.random() < 0.9
    n = len(payload)
    declared = n if rng.random() < 0.85 else rng.choice([0, 1, 125, 126, 65535, 1 << 40, (1 << 63) + 5])
    head = bytes([fin | rsv | opcode])
    mask_bit = 0x80 if masked else 0
    if declared < 126:
        head += bytes([mask_bit | declared])
    elif declared < 65536:
        head += bytes([mask_bit | 126]) + struct.pack("!H", declared)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", declared % (1 << 64))
    if masked:
        key = os.urandom(4)
        return head + key + ws_client.mask_payload(payload, key)
    return head + payload


def drain(sock, seconds):
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except OSError:
        pass


def healthy(port):
    t0 = time.monotonic()
    while True:  # fuzzed games that just closed may still hold their places for a moment
        try:
            g = ws_client.Game(port, timeout=10)
            break
        except ws_client.HandshakeRefused:
            check(time.monotonic() - t0 < 5, "no place for a fresh game 5 s after fuzzing")
            time.sleep(0.05)
    r = g.call({"cmd": "protocol", "id": "health"})
    g.close()
    check(r.get("ok") and r.get("id") == "health", f"a fresh game after fuzzing: {r}")


def main():
    morne = sys.argv[1]
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed)
    proc, port = start_server(morne, "--max-sessions", "8", "--max-message-bytes", "65536",
                              "--max-search-ms", "200")
    t0 = time.monotonic()
    heads = frames = 0
    try:
        for case in range(cases):
            try:
                if rng.random() < 0.4:
                    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                        s.sendall(http_head(rng, port))
                        drain(s, 0.05)
                    heads += 1
                else:
                    g = ws_client.Game(port, timeout=5)
                    for _ in range(rng.randint(1, 4)):
                        g.sock.sendall(ws_frame(rng))
                        frames += 1
                    drain(g.sock, 0.02)
                    g.sock.close()
            except (OSError, ConnectionError, ws_client.HandshakeRefused):
                pass  # the server may close or refuse: what matters is that it still serves
            if case % 50 == 49:
                check(proc.poll() is None, f"the server died at case {case} (seed {seed})")
                healthy(port)
        check(proc.poll() is None, "the server died")
        healthy(port)
        memory = resident_mb(proc.pid)
    finally:
        out = stop_server(proc)
    check("internal" not in out.lower(), "the server logged an internal error:\n" + out[-2000:])
    print(f"{cases} fuzz cases (seed {seed}): {heads} request heads, {frames} frames in "
          f"{time.monotonic() - t0:.1f} s; server memory {memory:.0f} MB; it served a fresh game "
          f"after every 50 and stopped cleanly")
    print(out.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
