#!/usr/bin/env python3
"""Where one thread's CPU goes, from a perf recording of a daemon: the share of its samples in each category.

Usage: perf script -i perf.data --comm THREAD | perf_breakdown.py [--micros-per-packet X]

Reads `perf script` output (call graphs: record with `perf record -g`; Java frames need the JVM's perf map,
-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit). Each sample goes to the first category whose marker is one of
its frames, in this order: sending (sendmmsg/sendmsg/writev/TCP send), receiving (recvmmsg/recvmsg/read), waiting
(epoll), waking another thread (eventfd), the protocol engine (io.ricochet.lecnak / lec / nak / engine), the rest of
the project's code, Netty, other. With --micros-per-packet X (the thread's CPU per packet, measured apart) it also
prints each category's share of X.
"""
import argparse
import collections
import sys

CATEGORIES = [
    ("send (sendmmsg, TCP write)", ("sendmmsg", "sendmsg", "tcp_sendmsg", "writev", "IOUtil.write")),
    ("receive (recvmmsg)", ("recvmmsg", "recvmsg", "IOUtil.read")),
    ("wait (epoll)", ("epoll_wait", "epoll_pwait")),
    ("wake another thread (eventfd)", ("EventFD", "eventfd")),
    ("protocol engine", ("io.ricochet.lecnak.", "io.ricochet.lec.", "io.ricochet.nak.", "io.ricochet.engine.")),
    ("daemon and API code", ("io.ricochet.",)),
    ("Netty", ("io.netty.",)),
]


def samples(lines):
    stack = None
    for line in lines:
        if line and not line[0].isspace():
            if stack:
                yield stack
            stack = []
        elif line.strip() and stack is not None:
            stack.append(line.strip())
    if stack:
        yield stack


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--micros-per-packet", type=float, default=None)
    args = parser.parse_args()
    counts = collections.Counter()
    total = 0
    for stack in samples(sys.stdin):
        total += 1
        frames = " ".join(stack)
        name = next((n for n, marks in CATEGORIES if any(m in frames for m in marks)), "other")
        counts[name] += 1
    if total == 0:
        sys.exit("perf_breakdown.py: no samples on standard input (is it `perf script` output of a -g recording?)")
    print(f"{total} samples")
    for name, n in counts.most_common():
        share = n / total
        extra = "" if args.micros_per_packet is None else f"  {share * args.micros_per_packet:6.2f} us/packet"
        print(f"{name:32s} {100 * share:5.1f} %{extra}")


if __name__ == "__main__":
    main()
