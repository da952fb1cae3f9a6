"""A small WebSocket client for morne serve's tests (RFC 6455, text frames), on the standard
library alone: Debian ships no WebSocket module for Python, and PyPI is not used."""

import base64
import json
import os
import socket
import struct


class HandshakeRefused(Exception):
    """The server answered the upgrade with an HTTP status other than 101."""

    def __init__(self, status, body, head=""):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body
        self.head = head


def mask_payload(payload, mask):
    """`payload` XOR the 4-byte `mask` repeated (fast for megabytes)."""
    n = len(payload)
    if n == 0:
        return b""
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


def client_frame(payload, opcode=0x1):
    """One whole, masked frame from a client (FIN set)."""
    mask = os.urandom(4)
    n = len(payload)
    if n < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
    elif n < 65536:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
    return header + mask + mask_payload(payload, mask)


def http_get(port, path, host="127.0.0.1", extra="", host_header=None):
    """GET `path`; returns (status, headers text, body bytes). `host_header` replaces the Host
    header's value (HOST:PORT)."""
    host_value = host_header if host_header is not None else f"{host}:{port}"
    with socket.create_connection((host, port), timeout=30) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {host_value}\r\n{extra}"
                  "Connection: close\r\n\r\n".encode("utf-8", "surrogateescape"))
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, head.decode("latin-1"), body


class Game:
    """One WebSocket connection to morne serve: one game."""

    def __init__(self, port, host="127.0.0.1", origin=None, timeout=60, host_header=None,
                 source=None):
        """`host_header` replaces the Host header's value; `source` is the local address to
        connect from (127.0.0.2 is another peer on loopback)."""
        self.sock = socket.create_connection((host, port), timeout=timeout,
                                             source_address=(source, 0) if source else None)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        origin_line = f"Origin: {origin}\r\n" if origin else ""
        host_value = host_header if host_header is not None else f"{host}:{port}"
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {host_value}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           f"Sec-WebSocket-Version: 13\r\n{origin_line}\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            head += chunk
        status = int(head.split(b" ", 2)[1])
        if status != 101:
            rest = b""
            try:
                while True:
                    chunk = self.sock.recv(65536)
                    if not chunk:
                        break
                    rest += chunk
            except socket.timeout:
                pass
            self.sock.close()
            raise HandshakeRefused(status, rest.decode("utf-8", "replace"),
                                   head.decode("latin-1"))

    def send_frame(self, payload, opcode=0x1):
        self.sock.sendall(client_frame(payload, opcode))

    def send(self, request):
        self.send_frame(json.dumps(request).encode())

    def _exact(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("connection closed")
            data += chunk
        return data

    def recv(self):
        """The next reply, parsed; answers pings; raises ConnectionError on close."""
        message = b""
        while True:
            b0, b1 = self._exact(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._exact(8))[0]
            payload = self._exact(n)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                self.close_reason = payload[2:].decode("utf-8", "replace")
                try:
                    self.send_frame(payload[:2], 0x8)  # the closing handshake's answer
                except OSError:
                    pass
                raise ConnectionError("closed by the server: " + self.close_reason)
            if opcode == 0x9:
                self.send_frame(payload, 0xA)
                continue
            message += payload
            if b0 & 0x80:
                return json.loads(message)

    def call(self, request):
        self.send(request)
        return self.recv()

    def close(self):
        try:
            self.send_frame(b"", 0x8)
        except OSError:
            pass
        self.sock.close()
