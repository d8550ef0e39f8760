#!/usr/bin/env python3
"""Allocation profile of one thread from a JFR recording: what it allocates, where, and how much per packet.

Usage: jfr_alloc.py RECORDING.jfr [--thread SUBSTRING] [--packets N] [--depth K] [--top T]

Reads the recording's jdk.ObjectAllocationSample events (`jfr print --json`; JFR's "profile" settings sample them),
keeps those of the threads whose name contains SUBSTRING (default "ricochet-engine", the daemon's engine
thread), and prints the sampled bytes by allocated class and by its K innermost frames, largest first. The samples
are weighted estimates of all bytes allocated (JFR's `weight`), so the totals are estimates too. With --packets N
(the datagrams the daemon received while recording) it also prints the estimated bytes allocated per packet.
"""
import argparse
import collections
import json
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("recording")
    parser.add_argument("--thread", default="ricochet-engine")
    parser.add_argument("--packets", type=int, default=0)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    try:
        raw = subprocess.run(["jfr", "print", "--json", "--stack-depth", str(args.depth), "--events",
                              "jdk.ObjectAllocationSample", args.recording],
                             check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"jfr_alloc.py: cannot read {args.recording} with 'jfr print': {e}")
    events = json.loads(raw)["recording"]["events"]
    by_thread = collections.Counter()
    by_site = collections.Counter()
    for event in events:
        values = event["values"]
        thread = (values.get("eventThread") or {}).get("javaName") or "?"
        weight = values.get("weight", 0)
        by_thread[thread] += weight
        if args.thread not in thread:
            continue
        frames = (values.get("stackTrace") or {}).get("frames") or []
        where = " < ".join(f["method"]["type"]["name"].split("/")[-1] + "." + f["method"]["name"]
                           for f in frames[:args.depth])
        by_site[(values["objectClass"]["name"], where)] += weight
    total = sum(by_site.values())
    print("sampled bytes by thread (MB):")
    for thread, weight in by_thread.most_common(8):
        print(f"  {weight / 1e6:10.1f}  {thread}")
    print(f"\nthreads matching '{args.thread}': {total / 1e6:.1f} MB", end="")
    if args.packets > 0:
        print(f", {total / args.packets:.0f} bytes per packet over {args.packets} packets", end="")
    print("\n")
    for (cls, where), weight in by_site.most_common(args.top):
        share = 100.0 * weight / total if total else 0.0
        print(f"{share:5.1f}%  {cls}  {where}")


if __name__ == "__main__":
    main()
