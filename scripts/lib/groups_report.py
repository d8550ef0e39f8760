"""The summary of a scripts/experiments/daemon-groups sweep (Figure 11 on the real daemon): summary.json and a
markdown table of every step, and whether the goal is met (CPU per packet flat in d: at the largest d at most
twice the figure at the smallest, and under 5 us everywhere).

Usage: groups_report.py OUT COMMAND RATE SECONDS WARMUP RX_BUFFER LOADAVG LABEL GROUPS...
"""
import json, os, pathlib, platform, subprocess, sys, time

from test_bed import configuration, environment, test_bed

out, command_line, rate, window, warmup, rx_buffer, load_at_start, label = sys.argv[1:9]
ds = [int(g) for g in sys.argv[9:]]
GOAL_MICROS, GOAL_RATIO = 5.0, 2.0
steps = [json.loads((pathlib.Path(out) / ("step-d%d.json" % g)).read_text()) for g in ds]
model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
micros = [s["daemonCpuMicrosPerPacket"] for s in steps]
first, last = steps[0], steps[-1]
ratio = (round(last["daemonCpuMicrosPerPacket"] / first["daemonCpuMicrosPerPacket"], 2)
         if len(steps) > 1 and first["daemonCpuMicrosPerPacket"] and last["daemonCpuMicrosPerPacket"] else None)
under = all(m is not None and m < GOAL_MICROS for m in micros)
FIELDS = ("groupsPerNode", "daemonGroupsJoined", "groupSockets", "igmpMaxMemberships", "offeredRate",
          "sendersAchievedRate", "receivedRate", "rxBufferRandomDrops", "kernelUdp", "kernelDropsBySocket",
          "daemonCpuPercent", "daemonCpuMicrosPerPacket", "daemonEngineThreadCpuPercent",
          "daemonCpuMicrosPerPacketWithoutCompiler", "daemonCpuMicrosPerPacketByThread", "daemonRssMiB",
          "daemonRssAtStartMiB", "daemonMemoryKiB",
          "loadAverageAfter", "noDrops", "joinSeconds", "daemonGcSecondsInWindow", "daemonHeapUsedMiB")
summary = {
    "label": label,
    "date": time.strftime("%Y-%m-%d %H:%M %Z"),
    "machine": {"nproc": os.cpu_count(), "cpuModel": model, "kernel": platform.release(), "java": java,
                "loadAverageAtStart": load_at_start},
    "command": command_line,
    "configuration": configuration(),
    "environment": environment(),
    "setup": {"offeredRate": int(rate), "senders": first["senders"], "payloadBytes": 1024, "lec": "r=8 c=5",
              "injectedLoss": "none", "rxBufferPacketsPerClass": int(rx_buffer) if rx_buffer else None, "windowSeconds": float(window),
              "warmupSeconds": float(warmup), "freshDaemonPerStep": True,
              "generatorSending": steps[0].get("generatorSending"),
              "bridgeSnooping": steps[0].get("bridgeSnooping"), "sinkApi": steps[0].get("sinkApi")},
    "goal": {"maxMicrosPerPacket": GOAL_MICROS, "maxRatioLargestToSmallestD": GOAL_RATIO,
             "ratioLargestToSmallestD": ratio, "underMaxEverywhere": under,
             "met": under and ratio is not None and ratio <= GOAL_RATIO},
    "steps": [{k: s.get(k) for k in FIELDS} for s in steps],
}
(pathlib.Path(out) / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")


def f(x, fmt="%.2f"):
    return "-" if x is None else fmt % x


rows = ["| d (groups) | group sockets | offered /s | received /s | RX buffer drops | kernel RcvbufErrors "
        "| daemon CPU % | daemon CPU µs / packet | without JIT compiler | engine thread µs / packet "
        "| other threads µs / packet "
        "| RSS MiB (at start) | heap used MiB | GC s in window |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
# The engine's thread: "ricochet-engine" (Netty's default names in older builds).
ENGINE_THREADS = ("ricochet-engine", "epollEventLoop", "nioEventLoop")
for s in steps:
    by_thread = s["daemonCpuMicrosPerPacketByThread"]
    engine_name = next((k for k in by_thread if k.startswith(ENGINE_THREADS)),
                       None)
    engine_us = by_thread.get(engine_name) if engine_name else None
    total = s["daemonCpuMicrosPerPacket"]
    other = None if total is None or engine_us is None else total - engine_us
    rows.append("| %d | %d | %d | %.0f | %d | %d | %s | %s | %s | %s | %s | %s (%s) | %s | %s |" % (
        s["groupsPerNode"], s["groupSockets"], s["offeredRate"], s["receivedRate"], s["rxBufferRandomDrops"],
        s["kernelUdp"].get("RcvbufErrors", 0), f(s["daemonCpuPercent"], "%.0f"), f(total),
        f(s["daemonCpuMicrosPerPacketWithoutCompiler"]), f(engine_us),
        f(other), f(s["daemonRssMiB"], "%.0f"), f(s["daemonRssAtStartMiB"], "%.0f"),
        f(s.get("daemonHeapUsedMiB"), "%.0f"), f(s.get("daemonGcSecondsInWindow"), "%.3f")))
m = summary["machine"]
text = ["%s. Machine: %d cores, %s, Linux %s, %s. %s; load average at start %s." % (
            label, m["nproc"], m["cpuModel"], m["kernel"], m["java"], summary["date"], load_at_start),
        test_bed(steps[0]), "", "\n".join(rows), "",
        "Goal (CPU per packet under %.0f µs at every d, and at d = %d at most %.0f x the figure at d = %d): %s "
        "(ratio %s, on all the daemon's CPU time). The JIT compiler's threads run while the daemon warms up: a "
        "column apart from all CPU shows how much of the window was still warm-up." % (
            GOAL_MICROS, last["groupsPerNode"], GOAL_RATIO, first["groupsPerNode"],
            "met" if summary["goal"]["met"] else "NOT met", f(ratio))]
(pathlib.Path(out) / "table.md").write_text("\n".join(text) + "\n")
print("\n".join(text))
