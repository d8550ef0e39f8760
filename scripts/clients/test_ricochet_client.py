#!/usr/bin/env python3
"""Unit tests of ricochet_client.py against a fake daemon on loopback (standard library only):

    python3 -m unittest discover -s scripts/clients -p 'test_*.py'

They fix the frames of protocol version 3 the client writes (HELLO, ORDER, large SENDs) and check that it reads
large DELIVERs whole and falls back to version 2 with a daemon that refuses 3. PythonClientSystemTest runs the
client against a real daemon.
"""

import socket
import struct
import threading
import unittest

import ricochet_client as rc

MIB = 1024 * 1024


def read_exactly(sock, count):
    data = bytearray()
    while len(data) < count:
        chunk = sock.recv(min(count - len(data), 1 << 20))
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return bytes(data)


def read_frame(sock):
    length = struct.unpack(">I", read_exactly(sock, 4))[0]
    rest = read_exactly(sock, length)
    return rest[0], struct.unpack(">I", rest[1:5])[0], rest[5:]


def wait_close(conn):
    """Until the client closes the connection (a reset counts)."""
    try:
        conn.recv(1)
    except OSError:
        pass


def frame(kind, request_id, body):
    return struct.pack(">IBI", 5 + len(body), kind, request_id) + body


class FakeDaemon:
    """Serves one connection per script on a loopback port; each script gets the socket and records what it saw."""

    def __init__(self, *scripts):
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(len(scripts))
        self.address = f"127.0.0.1:{self.server.getsockname()[1]}"
        self.seen = []
        self.error = None
        self.thread = threading.Thread(target=self._run, args=(scripts,), daemon=True)
        self.thread.start()

    def _run(self, scripts):
        try:
            for script in scripts:
                conn, _ = self.server.accept()
                with conn:
                    script(conn, self.seen)
        except Exception as e:  # reported by join()
            self.error = e

    def join(self):
        self.thread.join(30)
        self.server.close()
        if self.error:
            raise self.error


def hello(max_message, version=3):
    def script(conn, seen):
        kind, request_id, body = read_frame(conn)
        seen.append((kind, body))
        body = struct.pack(">HiI", version, 7, 1023)
        if version >= 3:
            body += struct.pack(">I", max_message)
        conn.sendall(frame(rc.HELLO_REPLY, request_id, body))
    return script


class RicochetClientTest(unittest.TestCase):

    def test_says_hello_in_version_3_and_takes_the_largest_message(self):
        def script(conn, seen):
            hello(16 * MIB)(conn, seen)
            wait_close(conn)
        daemon = FakeDaemon(script)
        with rc.RicochetClient.connect(daemon.address, name="t") as client:
            self.assertEqual(3, client.version)
            self.assertEqual(16 * MIB, client.max_message)
            self.assertEqual(1023, client.max_payload)
        daemon.join()
        self.assertEqual([(rc.HELLO, b"\x00\x03t")], daemon.seen)

    def test_writes_order_byte_for_byte(self):
        def script(conn, seen):
            hello(1023)(conn, seen)
            for _ in range(2):
                raw = read_exactly(conn, 14)
                seen.append(raw)
                conn.sendall(frame(rc.OK, struct.unpack(">I", raw[5:9])[0], struct.pack(">Q", 0)))
        daemon = FakeDaemon(script)
        with rc.RicochetClient.connect(daemon.address) as client:
            client.order(42, rc.FIFO)
            client.order(-2, rc.UNORDERED)
            with self.assertRaises(ValueError):
                client.order(42, 2)
        daemon.join()
        self.assertEqual(bytes([0, 0, 0, 10, 0x08, 0, 0, 0, 2, 0, 0, 0, 42, 1]), daemon.seen[1])
        self.assertEqual(bytes([0, 0, 0, 10, 0x08, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xfe, 0]), daemon.seen[2])

    def test_sends_a_large_message_whole_and_reads_a_large_deliver_whole(self):
        payload = bytes(i * 7 % 251 for i in range(3 * MIB))
        large = bytes(i * 13 % 241 for i in range(17 * MIB))

        def script(conn, seen):
            hello(20 * MIB)(conn, seen)
            kind, request_id, body = read_frame(conn)
            seen.append((kind, struct.unpack(">i", body[:4])[0], body[4:] == payload))
            conn.sendall(frame(rc.DELIVER, 0, struct.pack(">iiQ", 9, 5, 4096) + large))
            conn.sendall(frame(rc.OK, request_id, struct.pack(">Q", 8192)))
            wait_close(conn)
        daemon = FakeDaemon(script)
        with rc.RicochetClient.connect(daemon.address) as client:
            self.assertEqual(8192, client.send(5, memoryview(bytearray(payload))))
            delivery = client.poll(30.0)
            self.assertEqual((9, 5, 4096, False), (delivery.origin, delivery.group, delivery.message_id,
                                                   delivery.lost))
            self.assertTrue(delivery.payload == large, "the whole 17 MiB message")
            with self.assertRaises(ValueError):
                client.send(5, bytes(20 * MIB + 1))
        daemon.join()
        self.assertEqual((rc.SEND, 5, True), daemon.seen[1])

    def test_falls_back_to_version_2_with_a_daemon_that_refuses_3(self):
        def refuse(conn, seen):
            kind, request_id, body = read_frame(conn)
            seen.append(body[:2])
            conn.sendall(frame(rc.ERROR, request_id, struct.pack(">H", 2) + b"versions 1 to 2"))

        def old(conn, seen):
            kind, request_id, body = read_frame(conn)
            seen.append(body[:2])
            conn.sendall(frame(rc.HELLO_REPLY, request_id, struct.pack(">HiI", 2, 7, 1023)))
            wait_close(conn)
        daemon = FakeDaemon(refuse, old)
        with rc.RicochetClient.connect(daemon.address) as client:
            self.assertEqual((2, 1023), (client.version, client.max_message))
            with self.assertRaises(rc.ApiError) as refused:
                client.order(42, rc.FIFO)
            self.assertEqual("UNSUPPORTED_VERSION", refused.exception.name)
            with self.assertRaises(ValueError):
                client.send(5, bytes(1024))
        daemon.join()
        self.assertEqual([b"\x00\x03", b"\x00\x02"], daemon.seen)

    def test_refuses_a_deliver_above_the_version_2_frame_limit(self):
        def script(conn, seen):
            hello(1023, version=2)(conn, seen)
            conn.sendall(struct.pack(">IBI", rc.MAX_INBOUND_FRAME + 1, rc.DELIVER, 0))
            wait_close(conn)
        daemon = FakeDaemon(script)
        with rc.RicochetClient.connect(daemon.address, version=2) as client:
            with self.assertRaises(ConnectionError):
                client.poll(30.0)
        daemon.join()


if __name__ == "__main__":
    unittest.main()
