"""One step of scripts/experiments/daemon-throughput: the rates, CPU per packet and drops of one offered rate,
from the stats and /proc samples taken before and after it.

Usage: throughput_step.py STEP_DIR OUT_JSON RATE SENDERS SECONDS WARMUP ROLE=PID...
"""
import json, os, pathlib, sys

step_dir, out_file, rate, senders, window, warmup = sys.argv[1:7]
roles = dict(arg.split("=") for arg in sys.argv[7:])
d = pathlib.Path(step_dir)
tick = os.sysconf("SC_CLK_TCK")

def read(name):
    return (d / name).read_text()

def t(name):
    return float(read(name).strip())

def cpu_s(snap, pid):
    path = d / snap / ("proc-" + pid)
    text = path.read_text() if path.exists() else ""
    if ")" not in text:
        return None  # the process had exited
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick

def threads(snap):
    """The daemon's threads: tid -> (name, CPU seconds)."""
    result = {}
    for line in read(snap + "/daemon-threads").splitlines():
        head, rest = line.rsplit(")", 1)
        tid, name = head.split(" (", 1)
        fields = rest.split()
        result[tid] = (name, (int(fields[11]) + int(fields[12])) / tick)
    return result

def thread_cpu(window_s):
    """CPU % of the daemon's threads in the window, summed by thread name, busiest first."""
    t0, t1 = threads("before"), threads("after")
    by_name = {}
    for tid, (name, cpu1) in t1.items():
        by_name[name] = by_name.get(name, 0) + cpu1 - (t0[tid][1] if tid in t0 else 0)
    ranked = sorted(by_name.items(), key=lambda kv: -kv[1])
    return {name: round(100 * v / window_s, 1) for name, v in ranked if v > 0}

def machine(snap):
    v = [int(x) for x in read(snap + "/cpu").split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (v + [0] * 8)[:8]
    return {"user": user + nice, "system": system, "irq": irq, "softirq": softirq, "idle": idle + iowait,
            "steal": steal}

def udp(snap):
    lines = [l.split() for l in read(snap + "/snmp").splitlines() if l.startswith("Udp:")]
    return dict(zip(lines[0][1:], map(int, lines[1][1:])))

def socket_drops(snap):
    """Host 1's UDP sockets: inode -> (local IPv4 address, drops), from /proc/net/udp and udp6 (v4-mapped)."""
    result = {}
    for line in read(snap + "/udp-sockets").splitlines():
        f = line.split()
        if f[1] == "local_address":
            continue
        ip_hex, port_hex = f[1].split(":")
        ip_hex = ip_hex[-8:]  # an IPv4 address, or the IPv4 part of a v4-mapped IPv6 one
        ip = ".".join(str(int(ip_hex[i:i + 2], 16)) for i in (6, 4, 2, 0))
        result[f[9]] = ("%s:%d" % (ip, int(port_hex, 16)), int(f[-1]))
    return result

def drops_by_socket():
    """Kernel receive drops in the wide window: the daemon's unicast socket apart, its group sockets summed (bound
    to a multicast address, or, sharing memberships, to the multicast port on every address)."""
    d0, d1 = socket_drops("wide-before"), socket_drops("wide-after")
    unicast, groups = 0, 0
    for inode, (address, drops) in d1.items():
        delta = drops - d0.get(inode, (address, 0))[1]
        if 224 <= int(address.split(".")[0]) <= 239 or address.startswith("0.0.0.0:"):
            groups += delta
        else:
            unicast += delta
    return {"unicastSocket": unicast, "groupSockets": groups}

def sink(snap):
    return json.loads(read(snap + "/sink-progress.json"))

def counters(name):
    return json.loads(read(name))["counters"]

def stats_interval_s(before, after):
    """The time between two stats readings, on the daemon's own monotonic clock: the stamps it put in each reply as
    it read its counters (takenAtNs). Both ends of the counters' interval, so the time each `ricochet stats` JVM
    took to start and return (about a second each) is not counted in it (issue 37). A daemon too old to stamp its
    stats has no such interval: the step cannot be measured exactly, and says so."""
    b, a = json.loads(read(before)), json.loads(read(after))
    if not b.get("takenAtNs") or not a.get("takenAtNs"):
        sys.exit("throughput_step.py: %s or %s has no takenAtNs (the daemon predates it): no exact interval"
                 % (before, after))
    return (a["takenAtNs"] - b["takenAtNs"]) / 1e9

stats_seconds = stats_interval_s("stats-before.json", "stats-after.json")
# The stats tool's own view, for the record: from after one `ricochet stats` returned to after the other did.
stats_tool_seconds = t("stats-after.time") - t("stats-before.time")
window_s = t("after/time") - t("before/time")
c0, c1 = counters("stats-before.json"), counters("stats-after.json")
delta = {k: c1[k] - c0.get(k, 0) for k in c1}
received_rate = delta["DATA_RECEIVED"] / stats_seconds

cpu = {}
for role, pid in roles.items():
    a, b = cpu_s("before", pid), cpu_s("after", pid)
    cpu[role] = None if a is None or b is None else round(100 * (b - a) / window_s, 1)
daemon_cpu_s = cpu_s("after", roles["daemon"]) - cpu_s("before", roles["daemon"])
m0, m1 = machine("before"), machine("after")
jiffies = {k: m1[k] - m0[k] for k in m0}
total = sum(jiffies.values())
machine_pct = {k: round(100 * os.cpu_count() * v / total, 1) for k, v in jiffies.items()} if total else {}

u0, u1 = udp("wide-before"), udp("wide-after")
udp_delta = {k: u1[k] - u0[k] for k in ("InDatagrams", "InErrors", "RcvbufErrors", "NoPorts", "MemErrors")
             if k in u0}
s0, s1 = sink("before"), sink("after")
sink_seconds = (s1["epochMillis"] - s0["epochMillis"]) / 1000
loads = []
for role in sorted(r for r in roles if r.startswith("load-")):
    report = json.loads(read(role + ".json"))
    report["cpuPercentInWindow"] = cpu[role]
    loads.append(report)

result = {
    "offeredRate": int(rate),
    "senders": int(senders),
    "windowSeconds": round(window_s, 3),
    "statsSeconds": round(stats_seconds, 3),
    "statsToolSeconds": round(stats_tool_seconds, 3),
    "warmupSeconds": float(warmup),
    "sendersAchievedRate": round(sum(l["achievedRate"] for l in loads), 1),
    "sendersBehindAtEnd": sum(l["behindAtEnd"] for l in loads),
    "receivedRate": round(received_rate, 1),
    "dataReceived": delta["DATA_RECEIVED"],
    "delivered": delta["DELIVERED"],
    "rxBufferRandomDrops": delta["RX_BUFFER_RANDOM_DROPS"],
    "kernelUdp": udp_delta,
    "kernelDropsBySocket": drops_by_socket(),
    "repairsSent": delta["REPAIRS_SENT"],
    "repairsSentRate": round(delta["REPAIRS_SENT"] / stats_seconds, 1),
    "lossesDetected": delta["LOSSES_DETECTED"],
    "recoveredByXor": delta["RECOVERED_BY_XOR"],
    "recoveredByNak": delta["RECOVERED_BY_NAK"],
    "unrecovered": delta["UNRECOVERED"],
    "naksSent": delta["NAKS_SENT"],
    "daemonCpuPercent": cpu["daemon"],
    "daemonCpuMicrosPerPacket": round(1e6 * daemon_cpu_s / (received_rate * window_s), 2) if received_rate else None,
    "processCpuPercent": cpu,
    "daemonThreadsCpuPercent": thread_cpu(window_s),
    "machineCpuPercent": machine_pct,
    "loadAverageAfter": read("after/loadavg").split()[0],
    "sinkDeliveredRate": round((s1["delivered"] - s0["delivered"]) / sink_seconds, 1) if sink_seconds else None,
    "sinkDuplicates": s1["duplicates"],
    "sinkOverflowedDeliveries": s1["overflowedDeliveries"] - s0["overflowedDeliveries"],
    "counterDeltas": delta,
    "loadGenerators": loads,
    # How the test bed carried the load: the generators' way of sending, and whether the bridge snooped IGMP
    # (forwarding a group only to the hosts that joined it) or flooded every group to every host.
    "generatorSending": sorted({l.get("sending", "round-robin") for l in loads}),
    "bridgeSnooping": os.environ.get("RC_MCAST_SNOOPING", "0") == "1",
    "sinkApi": os.environ.get("SINK_API", "tcp"),
}
# The engine's thread is the daemon's one datagram event loop, "ricochet-engine" (Netty's default name in older
# builds); the API and GMS have their own.
result["daemonEngineThreadCpuPercent"] = next((v for k, v in result["daemonThreadsCpuPercent"].items()
                                               if k.startswith(("ricochet-engine", "epollEventLoop"))), None)
# A delivery the daemon dropped because the sink's connection was over its write buffer (OVERFLOW) is a drop too.
result["noDrops"] = (result["rxBufferRandomDrops"] == 0 and udp_delta.get("RcvbufErrors", 0) == 0
                     and udp_delta.get("InErrors", 0) == 0 and result["sinkOverflowedDeliveries"] == 0)
pathlib.Path(out_file).write_text(json.dumps(result, indent=2) + "\n")
