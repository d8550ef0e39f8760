"""The real cluster run and the simulator on the same setting, side by side: writes the comparison tables
of scripts/experiments/cluster-vs-sim into its output folder.

Usage: cluster_vs_sim_report.py OUT N D S G RATE SECONDS SEED LOSS LOAD_START COMMAND UP_CMD WORKLOAD_CMD WINDOW
"""
import csv, json, os, pathlib, platform, sys, time

(out, n, d, s_size, g, rate, seconds, seed, loss, load_start, command, up_cmd, wl_cmd, window) = sys.argv[1:15]
out = pathlib.Path(out)
n = int(n)
real = json.loads((out / "summary.json").read_text())
sims = [json.loads((out / f).read_text()) for f in ("simulator.json", "simulator-random-groups.json")]
sim_cmds = [(out / f).read_text().strip() for f in ("simulator.cmd", "simulator-random-groups.cmd")]
t = real["totals"]
dc = real["daemonCounters"]
lat = real["latencyMs"]

def c(name):
    return dc.get(name, 0)

def pct(part, whole):
    return round(100.0 * part / whole, 3) if whole else 0.0

send_s = t["sendSeconds"]
data_arrivals = t["expected"]            # data packets on the wire, once per receiver (as SimStats counts them)
receivers = data_arrivals / t["sent"]    # other members per packet sent: s - 1
losses = c("INJECTED_DROPS")             # injected drops of data packets: the simulator's "losses"
# Recoveries of injected drops: the daemons time every recovery of a packet they dropped on purpose, LEC and NAK
# apart, so the counts of those latency recordings are the simulator's lecRecovered and nakRecovered.
# RECOVERED_BY_XOR / _NAK also count recoveries of packets that were never lost (see the rows below).
lec = lat["lecRecoveryLatencyMs"]["count"]
nak = lat["nakRecoveryLatencyMs"]["count"]
# Control as SimStats counts it: every frame that is neither data nor a repair, once per receiver. NAKs,
# retransmissions and GONE answers are unicast; announcements are multicast to the other members, several groups'
# in one frame (SESSIONS) when the groups have the same members: frames, not announcements, are the messages.
control = c("NAKS_SENT") + c("RETRANSMITS_SENT") + c("GONE_SENT") + c("SESSION_FRAMES_SENT") * receivers
# The same from the receiving side, as a check (a daemon drops its own multicasts, looped back, before its engine).
control_received = (c("NAKS_RECEIVED") + c("RETRANSMITS_RECEIVED") + c("GONE_RECEIVED")
                    + c("SESSION_FRAMES_RECEIVED"))

def per_node_s(x, secs):
    return round(x / n / secs, 3)

def sim_receivers(sim):
    p = sim["parameters"]
    return p["ratePerNode"] / p["sendRatePerNode"]   # mean receivers per send in the simulated grouping

def sim_traffic_s(sim):
    return sim["parameters"]["seconds"] + sim["parameters"]["drainSeconds"]

rows = []  # (metric, real, [simulator values], note)

def row(metric, real_value, sim_fn, note=""):
    rows.append((metric, real_value, [sim_fn(sim) for sim in sims], note))

def latency_rows(label, real_key, sim_key):
    rl = lat.get(real_key)
    exact = rl is not None and rl.get("exact", False)
    for f in ("count", "mean", "p50", "p99", "max"):
        if rl is None:
            rv = "n/a"
        elif f in ("p50", "p99") and not exact:
            rv = "%s (per-node estimate)" % rl[f]
        else:
            rv = rl[f]
        row("%s latency %s%s" % (label, f, "" if f == "count" else " (ms)"), rv, lambda s: s[sim_key][f])

row("data packets arriving per node per second", round(data_arrivals / n / send_s, 3),
    lambda s: s["parameters"]["ratePerNode"], "real: expected / n / sendSeconds; the simulator is given this rate")
row("data packets sent per node per second", round(t["sent"] / n / send_s, 3),
    lambda s: s["parameters"]["sendRatePerNode"])
row("receivers per data packet", round(receivers, 3), lambda s: round(sim_receivers(s), 3),
    "real and same-groups simulator: every group has exactly s = 4 members")
row("data packets on the wire (once per receiver)", data_arrivals, lambda s: s["dataPackets"],
    "simulator: packets sent in the measured --seconds only")
row("losses (injected drops of data packets)", losses, lambda s: s["losses"])
row("loss rate %", pct(losses, data_arrivals), lambda s: pct(s["losses"], s["dataPackets"]))
row("recovered by LEC", lec, lambda s: s["lecRecovered"],
    "real: injected drops recovered by LEC (the daemons time each one from its drop)")
row("recovered by LEC %", pct(lec, losses), lambda s: s["lecRecoveryPercent"])
row("recovered by NAK", nak, lambda s: s["nakRecovered"])
row("recovered by NAK %", pct(nak, losses), lambda s: s["nakRecoveryPercent"])
row("unrecovered (never delivered)", t["missing"], lambda s: s["unrecovered"],
    "real: deliveries owed but never made (the exactly-once check)")
row("injected drops neither LEC nor NAK recovered", losses - lec - nak,
    lambda s: s["losses"] - s["lecRecovered"] - s["nakRecovered"],
    "real: with nothing missing, packets an early repair had already delivered when their data was dropped")
row("given up (LOST notices)", t["lostNotices"], lambda s: s["counters"].get("UNRECOVERED", 0))
row("losses detected (LOSSES_DETECTED)", c("LOSSES_DETECTED"), lambda s: s["counters"]["LOSSES_DETECTED"],
    "a sequence gap, or a packet named in a repair before its data was read; simulator: its 1 s drain included")
row("LEC recoveries of packets not lost", c("RECOVERED_BY_XOR") - lec,
    lambda s: s["counters"]["RECOVERED_BY_XOR"] - s["lecRecovered"],
    "RECOVERED_BY_XOR minus recovered by LEC; real: a repair read before the data it names; simulator: "
    "recoveries of losses in the unmeasured drain")
row("late arrivals (LATE_ARRIVALS)", c("LATE_ARRIVALS"), lambda s: s["counters"]["LATE_ARRIVALS"],
    "discovered missing, then the data arrived")
latency_rows("recovery (LEC + NAK)", "recoveryLatencyMs", "recoveryLatencyMs")
latency_rows("LEC recovery", "lecRecoveryLatencyMs", "lecRecoveryLatencyMs")
latency_rows("NAK recovery", "nakRecoveryLatencyMs", "nakRecoveryLatencyMs")
dl = lat.get("discoveryLatencyMs")
row("discovery latency mean (ms)", dl["mean"] if dl else "n/a", lambda s: s["discoveryLatencyMs"]["mean"],
    "real: drop to discovery, for the losses later recovered")
row("discovery latency max (ms)", dl["max"] if dl else "n/a", lambda s: s["discoveryLatencyMs"]["max"])
row("overhead % = repairs / (data + repairs) on the wire", pct(c("REPAIRS_SENT"), data_arrivals + c("REPAIRS_SENT")),
    lambda s: s["overheadPercent"])
row("XORs per data packet (BIN_XORS / DATA_RECEIVED)",
    round(c("BIN_XORS") / c("DATA_RECEIVED"), 3) if c("DATA_RECEIVED") else 0, lambda s: s["xorsPerDataPacket"])
row("control messages per node per second", per_node_s(control, send_s), lambda s: s["controlPerNodePerSecond"],
    "NAKs, retransmissions, GONE and SESSIONs, once per receiver; real: per second of sending, simulator: per "
    "second of traffic (seconds + 1 s drain)")
row("  of which announcement frames (SESSION, SESSIONS)", per_node_s(c("SESSION_FRAMES_SENT") * receivers, send_s),
    lambda s: per_node_s(s["counters"].get("SESSION_FRAMES_SENT", 0) * sim_receivers(s), sim_traffic_s(s)),
    "simulator: frames sent x mean receivers per send")
row("  the announcements they carry", per_node_s(c("SESSIONS_SENT") * receivers, send_s),
    lambda s: per_node_s(s["counters"].get("SESSIONS_SENT", 0) * sim_receivers(s), sim_traffic_s(s)),
    "one per group and idle stream; several share a frame when their groups have the same members")
row("repairs sent per node per second", per_node_s(c("REPAIRS_SENT"), send_s),
    lambda s: per_node_s(s["counters"].get("REPAIRS_SENT", 0), sim_traffic_s(s)))
row("NAKs sent", c("NAKS_SENT"), lambda s: s["counters"].get("NAKS_SENT", 0))
row("exactly once", "%s (%d owed, %d delivered, %d missing, %d duplicates, %d corrupt)" % (
        real["verdict"], t["expected"], t["delivered"], t["missing"], t["duplicates"], t["corrupt"]),
    lambda s: "%s (%d corrupt, %d duplicate deliveries; %d unrecovered)" % (
        "verified" if s["verified"] else "NOT verified", s["corruptDeliveries"], s["duplicateDeliveries"],
        s["unrecovered"]),
    "simulator: every delivered payload checked, nothing twice; measured losses all delivered")
e2e = lat["endToEnd"]
row("end-to-end latency p50 / p99 / max (ms)", "%s / %s / %s" % (e2e["p50"], e2e["p99"], e2e["max"]),
    lambda s: "n/a", "send call to delivery, through both local APIs; the simulator has no API")
row("FD heartbeats answered per node per second", per_node_s(c("HEARTBEATS_ANSWERED"), send_s), lambda s: "n/a",
    "failure detection is not simulated")
row("kernel RcvbufErrors / daemon rx-buffer drops", "%d / %d" % (
    real["loss"]["kernelRcvbufErrors"], real["loss"]["rxBufferDrops"]), lambda s: "n/a",
    "losses nobody injected; the simulator has no CPU or buffers")

# CPU per kind of process over the workload (cpu.json, from scripts/lib/cpu_sampler.py), and the detectors'
# verdicts (fd-failed.txt: every FAILED line the detectors logged during the run).
cpu_file = out / "cpu.json"
if cpu_file.exists():
    cpu = json.loads(cpu_file.read_text())
    kinds = {"daemon": "node-", "workload client": "workload-node-", "GMS partition": "gms-", "failure detector": "fd-"}
    for kind, prefix in kinds.items():
        used = [v for k, v in cpu["cpuSeconds"].items() if k.startswith(prefix)
                and not (prefix == "node-" and k.startswith("workload-"))]
        if used:
            row("CPU per %s: mean s over the run (%d processes, %.0f s sampled)" % (kind, len(used), cpu["seconds"]),
                "%.2f (%.1f %% of a core)" % (sum(used) / len(used), 100.0 * sum(used) / len(used) / cpu["seconds"]),
                lambda s: "n/a", "utime + stime from /proc/PID/stat while the workload ran")
    daemons = sum(v for k, v in cpu["cpuSeconds"].items() if k.startswith("node-"))
    delivered = t.get("delivered", 0)
    if delivered:
        row("daemon CPU per delivered message (us)", round(1e6 * daemons / delivered, 1), lambda s: "n/a",
            "all daemons' CPU / deliveries to the applications")
        compiling = sum(v for k, v in cpu.get("compilerSeconds", {}).items() if k.startswith("node-"))
        if "compilerSeconds" in cpu:
            row("daemon CPU per delivered message without the JIT compiler threads (us)",
                round(1e6 * (daemons - compiling) / delivered, 1), lambda s: "n/a",
                "the daemons' C1 and C2 compiler threads took %.1f s of their %.1f s: a JVM's warm-up, which a run "
                "of this length does not outlast" % (compiling, daemons))
        for kind, prefix in kinds.items():
            if kind == "daemon":
                continue
            used = sum(v for k, v in cpu["cpuSeconds"].items() if k.startswith(prefix))
            row("%s CPU per delivered message (us)" % kind, round(1e6 * used / delivered, 1), lambda s: "n/a",
                "all of that kind's processes / deliveries to the applications")
        if cpu.get("wakeups"):
            wakeups = sum(cpu["wakeups"].values())
            row("daemon wake-ups per delivered message", round(wakeups / delivered, 2), lambda s: "n/a",
                "voluntary context switches of every daemon thread (%d in all) / deliveries" % wakeups)
failed_file = out / "fd-failed.txt"
if failed_file.exists():
    verdicts = [l for l in failed_file.read_text().splitlines() if l.strip()]
    row("FAILED verdicts of the failure detectors", len(verdicts), lambda s: "n/a",
        "every daemon stayed up: any verdict is false")

with open(out / "cluster-vs-sim.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["metric", "real", "simulator"])
    for m, rv, sv, _ in rows:
        w.writerow([m, rv, sv[0]])

model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
load_end = " ".join(open("/proc/loadavg").read().split()[:3])
checks = [
    ("control frames received from other nodes per node per second", per_node_s(control_received, send_s)),
    ("data packets the daemons sent", c("DATA_SENT")),
    ("data packets the workload sent", t["sent"]),
    ("losses the daemons detected", c("LOSSES_DETECTED")),
    ("data received (first copies) + injected drops", c("DATA_RECEIVED") + losses),
    ("kernel UDP InErrors", real["kernelTotals"].get("InErrors", 0)),
]
table = ["| metric | real (cluster) | simulator, same groups | simulator, random groups | note |",
         "|---|---|---|---|---|"]
for m, rv, sv, note in rows:
    table.append("| %s | %s | %s | %s | %s |" % (m, rv, sv[0], sv[1], note))
md = [
    "# Real sockets against the simulator: (n = %d, d = %s, s = %s)" % (n, d, s_size),
    "",
    "- **Date:** %s; the workload ran from %s (the cluster's start and teardown excluded)" % (
        time.strftime("%Y-%m-%d"), window),
    "- **Machine:** %d cores (`nproc`), %s, Linux %s; load average %s before the cluster started, %s at the end "
    "(with this run's own processes)" % (os.cpu_count(), model, platform.release(), load_start, load_end),
    "- **Command:** `%s`" % command,
    "- **Seed:** %s (the workload's plan and senders; the simulator's)" % seed,
    "- **Setting:** %d nodes, %s groups, each node in %s (s = %s), %s msgs/s per node for %s s, loss %s" % (
        n, g, d, s_size, rate, seconds, loss),
    "- **It ran** (the run folder was a temporary directory):",
    "  - `%s`" % up_cmd,
    "  - `%s`" % wl_cmd,
    "  - `%s`" % sim_cmds[0],
    "  - `%s`" % sim_cmds[1],
    "- **Columns:** *simulator, same groups* runs on the real run's plan (`--plan`: every group of exactly %s). "
    "*Simulator, random groups* is the simulator's own seeded grouping for the same flags, in which each node "
    "picks %s of the %s groups at random, so group sizes vary around %s (with d = g every node is in every group, "
    "and the two columns are the same setting). `cluster-vs-sim.csv` holds the first." % (s_size, d, g, s_size),
    "",
] + table + [
    "",
    "Cross-checks of the real run: %s." % "; ".join("%s %s" % kv for kv in checks),
    "",
]
(out / "summary.md").write_text("\n".join(md))
print("\n".join(table))
