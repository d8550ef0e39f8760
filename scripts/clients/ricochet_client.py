#!/usr/bin/env python3
"""A client of the Ricochet daemon's local API (docs/api.md), in Python 3.9+ with the standard library only.

    from ricochet_client import RicochetClient
    with RicochetClient.connect("127.0.0.1:7400") as client:   # or "unix:/run/ricochet/api.sock"
        client.join(42)
        client.order(42, FIFO)                                    # optional: each sender's messages in order
        message_id = client.send(42, b"hello")                    # up to client.max_message bytes
        delivery = client.poll(2.0)                               # None after 2 s of silence
        print(delivery, client.stats()["counters"])

One connection, used by one thread: each request waits for its reply, and the DELIVER, LOST and DROPPED frames
that arrive meanwhile are queued (at most max_queued; more are dropped and counted in dropped_deliveries) for
poll(). Run as a program, it checks a daemon end to end (self-test) or prints its stats:

    python3 ricochet_client.py --api 127.0.0.1:7400 self-test --group 42
    python3 ricochet_client.py --api unix:/run/ricochet/api.sock stats

Kept in step with docs/api.md by PythonClientSystemTest, which runs the self-test against a daemon.
"""

import argparse
import collections
import json
import socket
import struct
import sys
import time
from typing import Deque, NamedTuple, Optional

PROTOCOL_VERSION = 3                    # 3: messages up to the daemon's max-message, and ORDER
DEFAULT_API = "127.0.0.1:7400"
# Frame types (docs/api.md, "Frame types").
HELLO, JOIN, LEAVE, SEND, STATS, TRY_SEND, OPTIONS, ORDER = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08
HELLO_REPLY, OK, STATS_REPLY, ERROR = 0x41, 0x42, 0x43, 0x44
DELIVER, LOST, OVERFLOW, DROPPED = 0x81, 0x82, 0x83, 0x84
NO_ECHO, NO_LOCAL = 1, 2
UNORDERED, FIFO = 0, 1                  # ORDER modes (docs/api.md, "Ordering")
ERROR_NAMES = {1: "MALFORMED_FRAME", 2: "UNSUPPORTED_VERSION", 3: "NOT_A_MEMBER", 4: "PAYLOAD_TOO_LARGE",
               5: "BAD_GROUP", 6: "UNAVAILABLE", 7: "INTERNAL", 8: "BUSY", 9: "LIMIT_EXCEEDED",
               10: "NOT_PERMITTED"}
HEADER = struct.Struct(">IBI")          # length of the rest, type, request id
MAX_INBOUND_FRAME = 16 * 1024 * 1024    # a daemon frame's length field is at most this (a large STATS_REPLY)...
DELIVER_OVERHEAD = 21                   # ...or, in version 3, a DELIVER: type, request id, origin, group, id, payload
MAX_MESSAGE = 1 << 30                   # the largest message the API carries, whatever the daemon says
COPY_LIMIT = 64 * 1024                  # a larger payload is sent after its header, not copied behind it
MESSAGES_PER_DATAGRAM = 4096            # message id = datagram seqno * 4096 + index (docs/api.md, "Message ids")
LARGE_SELF_TEST = 1 << 20               # the self-test's large message, sent when the daemon takes it


class ApiError(Exception):
    """An ERROR reply: code (docs/api.md, "Error codes"; an unknown one reads as INTERNAL) and message."""

    def __init__(self, code: int, message: str):
        self.code = code
        self.name = ERROR_NAMES.get(code, "INTERNAL")
        super().__init__(f"{self.name}: {message}")


class Delivery(NamedTuple):
    """A DELIVER (lost False), a LOST (lost True: covers ids message_id .. message_id + 4095), or a DROPPED (lost
    and dropped True: the daemon dropped ids message_id .. last_id because this client read too slowly)."""
    origin: int
    group: int
    message_id: int
    payload: bytes
    lost: bool
    dropped: bool = False
    last_id: int = -1

    def covers(self, message_id: int) -> bool:
        """Whether this delivery names message_id: itself, for a LOST any message of its datagram, for a DROPPED any
        message of its run."""
        if self.dropped:
            return self.message_id <= message_id <= self.last_id
        if not self.lost:
            return message_id == self.message_id
        return message_id // MESSAGES_PER_DATAGRAM == self.message_id // MESSAGES_PER_DATAGRAM


class RicochetClient:
    """A session with a daemon: HELLO done, then join, leave, send, try_send, options, order, stats and poll.

    version is the protocol version the session speaks: 3, or 2 with a daemon that refuses 3 (connect() tries again);
    max_message is the largest message send takes: the daemon's max-message in version 3; max_payload is what one
    datagram carries (a larger message is fragmented by the daemon; the same as max_message before version 3)."""

    def __init__(self, sock: socket.socket, name: str = "python-client", timeout: float = 10.0,
                 max_queued: int = 10000, version: int = PROTOCOL_VERSION):
        self._sock = sock
        self._timeout = timeout
        self._next_id = 1
        self._queue: Deque[Delivery] = collections.deque()
        self._max_queued = max_queued
        self.dropped_deliveries = 0      # deliveries this client dropped: its queue was full
        self.overflowed_deliveries = 0   # deliveries the daemon dropped (sum of OVERFLOW counts)
        name_bytes = name.encode("utf-8")
        if len(name_bytes) > 255:
            raise ValueError("client name longer than 255 bytes")
        self._max_inbound = MAX_INBOUND_FRAME
        body = self._request(HELLO, struct.pack(">H", version) + name_bytes, HELLO_REPLY)
        self.version, self.node_id, self.max_payload = struct.unpack(">HiI", body[:10])
        # Version 3 adds the largest message (fragmented by the daemon); before, one datagram's payload.
        self.max_message = struct.unpack(">I", body[10:14])[0] if len(body) == 14 else self.max_payload
        if self.version >= 3:
            self._max_inbound = max(MAX_INBOUND_FRAME, min(self.max_message, MAX_MESSAGE) + DELIVER_OVERHEAD)

    @classmethod
    def connect(cls, address: str = DEFAULT_API, **kwargs) -> "RicochetClient":
        """Connects to HOST:PORT or unix:/path/to/socket and says HELLO; a daemon that does not speak version 3
        (UNSUPPORTED_VERSION) is asked again, on a new connection, for version 2."""
        try:
            return cls._connect(address, **kwargs)
        except ApiError as e:
            if e.code != 2 or "version" in kwargs:
                raise
        return cls._connect(address, version=2, **kwargs)

    @classmethod
    def _connect(cls, address: str, **kwargs) -> "RicochetClient":
        timeout = kwargs.get("timeout", 10.0)
        if address.startswith("unix:"):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(timeout)
            sock.connect(address[len("unix:"):])
        else:
            host, sep, port = address.rpartition(":")
            if not sep or not port.isdigit():
                raise ValueError(f"API address {address!r}: expected HOST:PORT or unix:/path/to/socket")
            sock = socket.create_connection((host.strip("[]"), int(port)), timeout=timeout)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            return cls(sock, **kwargs)
        except BaseException:
            sock.close()
            raise

    def __enter__(self) -> "RicochetClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Closes the connection; the daemon leaves every group it joined."""
        self._sock.close()

    def join(self, group: int) -> None:
        self._request(JOIN, struct.pack(">i", group), OK)

    def leave(self, group: int) -> None:
        self._request(LEAVE, struct.pack(">i", group), OK)

    def order(self, group: int, mode: int) -> None:
        """ORDER (version 3): FIFO = each sender's messages in the group in the order its daemon accepted them, a LOST
        in the place of a message given up; UNORDERED (the default) = each message as soon as it is complete."""
        if self.version < 3:
            raise ApiError(2, f"the daemon speaks protocol version {self.version}, which has no ORDER")
        if mode not in (UNORDERED, FIFO):
            raise ValueError(f"ordering mode {mode}: expected UNORDERED (0) or FIFO (1)")
        self._request(ORDER, struct.pack(">iB", group, mode), OK)

    def send(self, group: int, payload: bytes) -> int:
        """SEND: waits while the daemon cannot take the message; returns its message id."""
        return self._send(SEND, group, payload)

    def try_send(self, group: int, payload: bytes) -> int:
        """TRY_SEND: raises ApiError BUSY when the daemon cannot take the message at once."""
        return self._send(TRY_SEND, group, payload)

    def options(self, echo: bool = True, local_delivery: bool = True) -> None:
        """OPTIONS: echo False = NO_ECHO (not its own sends), local_delivery False = NO_LOCAL (no local sends)."""
        flags = (0 if echo else NO_ECHO) | (0 if local_delivery else NO_LOCAL)
        self._request(OPTIONS, struct.pack(">I", flags), OK)

    def stats(self) -> dict:
        """The daemon's stats, a JSON object (docs/api.md, "Stats")."""
        return json.loads(self._request(STATS, b"", STATS_REPLY).decode("utf-8"))

    def poll(self, timeout: float) -> Optional[Delivery]:
        """The next DELIVER, LOST or DROPPED, or None when none comes within timeout seconds."""
        deadline = time.monotonic() + timeout
        while not self._queue:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            frame = self._read_frame(left)
            if frame is None:
                return None
            self._take_push(*frame)
        return self._queue.popleft()

    def _send(self, kind: int, group: int, payload) -> int:
        """payload: bytes, bytearray or memoryview (any bytes-like object); a large one is sent without a copy."""
        payload = memoryview(payload).cast("B")
        if len(payload) > self.max_message:
            raise ValueError(f"payload of {len(payload)} bytes is above the daemon's maximum {self.max_message}")
        return struct.unpack(">Q", self._request(kind, struct.pack(">i", group), OK, payload))[0]

    def _request(self, kind: int, body: bytes, reply_kind: int, payload=b"") -> bytes:
        request_id = self._next_id
        self._next_id = self._next_id % 0x7FFFFFFF + 1
        header = HEADER.pack(5 + len(body) + len(payload), kind, request_id) + body
        if len(payload) <= COPY_LIMIT:
            self._sock.sendall(header + bytes(payload))
        else:
            self._sock.sendall(header)
            self._sock.sendall(payload)
        deadline = time.monotonic() + self._timeout
        while True:
            frame = self._read_frame(deadline - time.monotonic())
            if frame is None:
                raise ApiError(6, f"no reply within {self._timeout} s")
            got_kind, got_id, got_body = frame
            if got_id == 0 and got_kind != ERROR:
                self._take_push(got_kind, got_id, got_body)
            elif got_kind == ERROR:
                code = struct.unpack(">H", got_body[:2])[0]
                raise ApiError(code, got_body[2:].decode("utf-8", "replace"))
            elif got_id != request_id or got_kind != reply_kind:
                raise ConnectionError(f"unexpected frame type 0x{got_kind:02x} for request {got_id}")
            else:
                return got_body

    def _take_push(self, kind: int, _request_id: int, body: bytes) -> None:
        if kind == OVERFLOW:
            self.overflowed_deliveries += struct.unpack(">Q", body)[0]
            return
        if kind not in (DELIVER, LOST, DROPPED):
            raise ConnectionError(f"unexpected pushed frame type 0x{kind:02x}")
        origin, group, message_id = struct.unpack(">iiQ", body[:16])
        if len(self._queue) >= self._max_queued:
            self.dropped_deliveries += 1
        elif kind == DROPPED:
            last_id = struct.unpack(">Q", body[16:24])[0]
            self._queue.append(Delivery(origin, group, message_id, b"", True, True, last_id))
        else:
            self._queue.append(Delivery(origin, group, message_id, body[16:], kind == LOST))

    def _read_frame(self, timeout: float):
        """(type, request id, body), or None if no frame begins within timeout seconds."""
        if timeout <= 0:
            return None
        self._sock.settimeout(timeout)
        try:
            first = self._sock.recv(4)
        except socket.timeout:
            return None
        self._sock.settimeout(self._timeout)    # a frame begun arrives whole, soon
        length = struct.unpack(">I", first + self._read_exactly(4 - len(first)))[0] if first else None
        if length is None:
            raise ConnectionError("the daemon closed the connection")
        if length < 5 or length > self._max_inbound:
            raise ConnectionError(f"malformed frame length {length}")
        rest = self._read_exactly(length)
        return rest[0], struct.unpack(">I", rest[1:5])[0], rest[5:]

    def _read_exactly(self, count: int) -> bytes:
        data = bytearray(count)
        view = memoryview(data)
        got = 0
        while got < count:
            n = self._sock.recv_into(view[got:], min(count - got, 1 << 20))
            if not n:
                raise ConnectionError("the daemon closed the connection inside a frame")
            got += n
        return bytes(data)


def self_test(client: RicochetClient, group: int, count: int) -> bool:
    """Joins group, sends count messages and waits for each to come back (docs/api.md, "Local delivery")."""
    print(f"connected: node {client.node_id}, protocol version {client.version}, max payload {client.max_payload}, "
          f"max message {client.max_message}")
    client.join(group)
    print(f"joined group {group}")
    sent = {}
    for i in range(count):
        payload = f"self-test {i}".encode("utf-8")
        sent[client.send(group, payload)] = payload
    print(f"sent {count} messages")
    received = 0
    while sent:
        delivery = client.poll(10.0)
        if delivery is None:
            print(f"FAILED: {len(sent)} of my messages did not come back within 10 s")
            return False
        if delivery.lost and any(delivery.covers(i) for i in sent):
            print(f"FAILED: my message {delivery.message_id} was reported {'DROPPED' if delivery.dropped else 'LOST'}")
            return False
        if delivery.origin == client.node_id and sent.get(delivery.message_id) == delivery.payload:
            del sent[delivery.message_id]
            received += 1
    print(f"received {received} own messages back")
    if client.max_message >= LARGE_SELF_TEST:
        # A message of 1 MiB: the daemon cuts it into datagrams, and it must come back whole (docs/api.md).
        large = bytes((i * 7 + 13) % 251 for i in range(LARGE_SELF_TEST))
        large_id = client.send(group, large)
        while True:
            delivery = client.poll(30.0)
            if delivery is None:
                print(f"FAILED: my {LARGE_SELF_TEST}-byte message did not come back within 30 s")
                return False
            if delivery.lost and delivery.covers(large_id):
                print(f"FAILED: my {LARGE_SELF_TEST}-byte message was reported lost")
                return False
            if delivery.origin == client.node_id and delivery.message_id == large_id:
                if delivery.payload != large:
                    print(f"FAILED: my {LARGE_SELF_TEST}-byte message came back altered")
                    return False
                print(f"received my {LARGE_SELF_TEST}-byte message back whole")
                break
    stats = client.stats()
    print(f"stats: node {stats.get('node')}, groups {stats.get('groups')}, "
          f"api frames in {stats.get('api', {}).get('FRAMES_IN')}")
    client.leave(group)
    print(f"left group {group}")
    print("self-test passed")
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Ricochet local API client (docs/api.md).")
    parser.add_argument("--api", default=DEFAULT_API, help="HOST:PORT or unix:/path/to/socket (%(default)s)")
    commands = parser.add_subparsers(dest="command", required=True)
    test = commands.add_parser("self-test", help="join a group, send, receive the messages back, print stats")
    test.add_argument("--group", type=int, default=4242)
    test.add_argument("--count", type=int, default=3)
    commands.add_parser("stats", help="print the daemon's stats as JSON")
    args = parser.parse_args(argv)
    try:
        with RicochetClient.connect(args.api) as client:
            if args.command == "stats":
                print(json.dumps(client.stats(), indent=2))
                return 0
            return 0 if self_test(client, args.group, args.count) else 1
    except (OSError, ApiError, ValueError) as e:
        print(f"ricochet_client: {args.api}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
