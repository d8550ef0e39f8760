"""One step of scripts/experiments/daemon-groups: the daemon-throughput step record (throughput_step.py, already
written to OUT_JSON) plus what Figure 11 plots against d: the daemon's CPU per received packet, in all and per
thread, its memory (/proc/PID/status), and its group sockets.

Usage: groups_step.py STEP_DIR OUT_JSON GROUPS MULTICAST_PORT
"""
import json, pathlib, sys

step_dir, out_file, groups, mcast_port = sys.argv[1:5]
d = pathlib.Path(step_dir)
step = json.loads(pathlib.Path(out_file).read_text())


def status_kib(name):
    """VmRSS, VmHWM, RssAnon, RssFile and Threads of the daemon from a saved /proc/PID/status, in KiB."""
    path = d / name
    fields = {}
    if not path.exists():
        return fields
    for line in path.read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "VmSize"):
            fields[key] = int(value.split()[0])
        elif key == "Threads":
            fields[key] = int(value)
    return fields


def group_sockets(snap):
    """Host 1's UDP sockets bound to the multicast port: the daemon's group sockets (nothing else binds it)."""
    count = 0
    for line in (d / snap / "udp-sockets").read_text().splitlines():
        f = line.split()
        if f[1] != "local_address" and int(f[1].split(":")[1], 16) == int(mcast_port):
            count += 1
    return count


def jstat(name):
    """The daemon's `jstat -gc` line as a dict (KB and seconds), or {} when it was not read."""
    path = d / name
    if not path.exists():
        return {}
    lines = path.read_text().split("\n")
    if len(lines) < 2:
        return {}
    # A column a collector does not have (CGC and CGCT under ParallelGC) reads '-'.
    return {k: float(v) for k, v in zip(lines[0].split(), lines[1].split()) if v != "-"}


gc_before, gc_after = jstat("jstat-before"), jstat("jstat-after")
received = step["receivedRate"]
per_thread = {name: round(pct * 1e4 / received, 3) for name, pct in step["daemonThreadsCpuPercent"].items()} \
    if received else {}
# The JIT compiler's threads run only while the daemon warms up: their share shows how warm it was in the window.
compiler = round(sum(v for k, v in per_thread.items() if "CompilerThre" in k), 3)
stats = json.loads((d / "stats-after.json").read_text())
limit_file = d / "igmp_max_memberships"
step.update({
    "groupsPerNode": int(groups),
    "daemonGroupsJoined": len(stats.get("groups", [])),
    "groupSockets": group_sockets("after"),
    "igmpMaxMemberships": int(limit_file.read_text()) if limit_file.exists() else None,
    "daemonCpuMicrosPerPacketByThread": per_thread,
    "daemonCpuMicrosPerPacketWithoutCompiler": (round(step["daemonCpuMicrosPerPacket"] - compiler, 3)
                                                if step["daemonCpuMicrosPerPacket"] is not None else None),
    "daemonMemoryKiB": {"atStart": status_kib("daemon-status-start"), "inWindow": status_kib("after/daemon-status")},
    "daemonRssMiB": round(status_kib("after/daemon-status").get("VmRSS", 0) / 1024, 1),
    "daemonRssAtStartMiB": round(status_kib("daemon-status-start").get("VmRSS", 0) / 1024, 1),
    "daemonBuffers": stats.get("buffers", {}),
    # GC time in the window and the heap in use at its end (jstat -gc: young, survivors and old generation).
    "daemonGcSecondsInWindow": (round(gc_after["GCT"] - gc_before["GCT"], 3)
                                if "GCT" in gc_after and "GCT" in gc_before else None),
    "daemonHeapUsedMiB": (round(sum(gc_after.get(k, 0) for k in ("S0U", "S1U", "EU", "OU")) / 1024, 1)
                          if gc_after else None),
    "joinSeconds": json.loads((d / "join-seconds.json").read_text()) if (d / "join-seconds.json").exists() else None,
})
pathlib.Path(out_file).write_text(json.dumps(step, indent=2) + "\n")
