"""The tables of scripts/experiments/adaptive-lec-cluster: per variant (fixed c, tuned c) and loss phase, what the
daemons recovered and what their repairs cost, from the counters every daemon reported at each phase's end.

Usage: adaptive_lec_cluster_report.py OUT PHASES PHASE_SECONDS GROUPS DEGREE RATE SEED COMMAND
Reads OUT/{fixed,tuned}/snapshot-K.json (K = 0 at the start of sending, then one per phase) and
OUT/{fixed,tuned}/workload-summary.json; writes OUT/summary.json and OUT/summary.md, and prints the table.
"""
import json, os, pathlib, re, sys, time

out, phases, phase_seconds, groups, degree, rate, seed, command = sys.argv[1:9]
out = pathlib.Path(out)
loss = [int(p) for p in phases.split(",")]
VARIANTS = (("fixed", "fixed (8, 5), the default"), ("tuned", "tuned (r, c) (rate-of-fire-tuning on)"))
MODEL = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
COUNTERS = ("DATA_SENT", "DATA_RECEIVED", "LOSSES_DETECTED", "RECOVERED_BY_XOR", "RECOVERED_BY_COMBINING",
            "RECOVERED_BY_NAK", "UNRECOVERED", "REPAIRS_SENT", "NAKS_SENT")


def snapshot(variant, k):
    return json.loads((out / variant / ("snapshot-%d.json" % k)).read_text())


def totals(snap):
    """Each counter summed over the daemons."""
    return {name: sum(node["counters"].get(name, 0) for node in snap["nodes"].values()) for name in COUNTERS}


def mean_of(snap, name, fixed):
    """The mean over every daemon's groups of the figure `name` (r or c) in the rate-of-fire lines of 'ricochet
    stats' ("r 8, c 5.0, stagger 1: ..."); `fixed`, the default's, without tuning; None if tuned daemons listed no
    group."""
    tuned = [node["rateOfFire"] for node in snap["nodes"].values() if node.get("rateOfFire") is not None]
    if not tuned:
        return fixed
    xs = [float(m.group(1)) for lines in tuned for line in lines.values()
          for m in [re.search(r"\b%s ([0-9.]+)" % name, line)] if m]
    return round(sum(xs) / len(xs), 2) if xs else None


def taken(snap):
    """When the daemons answered: the mean of their own clocks' readings (they answer within seconds)."""
    times = [node["takenAtEpochMs"] for node in snap["nodes"].values()]
    return sum(times) / len(times)


def pct(part, whole):
    return round(100.0 * part / whole, 2) if whole else 0.0


report = {"command": command, "phases": loss, "phaseSeconds": int(phase_seconds), "groups": int(groups),
          "degree": int(degree), "rate": int(rate), "seed": int(seed), "variants": {}}
for variant, label in VARIANTS:
    snaps = [snapshot(variant, k) for k in range(len(loss) + 1)]
    rows = []
    for i, permille in enumerate(loss):
        a, b = totals(snaps[i]), totals(snaps[i + 1])
        d = {name: b[name] - a[name] for name in COUNTERS}
        seconds = (taken(snaps[i + 1]) - taken(snaps[i])) / 1000.0
        lec = d["RECOVERED_BY_XOR"] + d["RECOVERED_BY_COMBINING"]
        rows.append({"lossPermille": permille, "seconds": round(seconds, 1), "dataReceived": d["DATA_RECEIVED"],
                     "lossesDetected": d["LOSSES_DETECTED"], "recoveredByLec": lec,
                     "recoveredByNak": d["RECOVERED_BY_NAK"], "unrecovered": d["UNRECOVERED"],
                     "lecPercent": pct(lec, lec + d["RECOVERED_BY_NAK"]), "repairsSent": d["REPAIRS_SENT"],
                     "overheadPercent": pct(d["REPAIRS_SENT"], d["REPAIRS_SENT"] + d["DATA_RECEIVED"]),
                     "naksSent": d["NAKS_SENT"], "meanCAtEnd": mean_of(snaps[i + 1], "c", 5.0),
                     "meanRAtEnd": mean_of(snaps[i + 1], "r", 8.0)})
    wl = json.loads((out / variant / "workload-summary.json").read_text())
    lat = wl["latencyMs"]
    report["variants"][variant] = {"label": label, "phases": rows, "verdict": wl["verdict"],
                                   "delivered": wl["totals"]["delivered"], "expected": wl["totals"]["expected"],
                                   "lostNotices": wl["totals"]["lostNotices"],
                                   "endToEndMs": lat["endToEnd"]}

(out / "summary.json").write_text(json.dumps(report, indent=2) + "\n")

lines = ["# LEC that tunes itself on the local cluster: fixed (8, 5) against tuned (r, c) under a changing link loss",
         "",
         "- **Date:** %s UTC; **machine:** %d cores, %s" % (time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
                                                          os.cpu_count(), MODEL),
         "- **Command:** `%s`" % command,
         "- **Setting:** 8 daemons at their defaults (authenticated) but `rate-of-fire-tuning`, every node in %s of %s "
         "groups, %s msgs/s per node, 1 KB; nftables loss on every host's link (multicast: data and announcements) "
         "of %s per mille, %s s each, changed mid-run by `scripts/cluster link-loss`; seed %s" % (
             degree, groups, rate, ", ".join(str(p) for p in loss), phase_seconds, seed),
         "- **Counters:** summed over the daemons between their answers at each phase's end (asked in parallel, they "
         "answer within seconds of each other); LEC % is LEC's share of "
         "the recoveries (LEC + NAK); overhead is repairs / (data received + repairs); r and c are the means over every "
         "daemon's groups at the phase's end", "",
         "| variant | phase: loss | data received | losses found | by LEC / by NAK | LEC % | repairs sent | "
         "overhead % | r at end | c at end |", "|---|---|---:|---:|---|---:|---:|---:|---:|---:|"]
for variant, _ in VARIANTS:
    v = report["variants"][variant]
    for i, row in enumerate(v["phases"]):
        lines.append("| %s | %d: %.1f %% | %d | %d | %d / %d | %.2f | %d | %.2f | %s | %s |" % (
            v["label"], i + 1, row["lossPermille"] / 10.0, row["dataReceived"], row["lossesDetected"],
            row["recoveredByLec"], row["recoveredByNak"], row["lecPercent"], row["repairsSent"],
            row["overheadPercent"], "-" if row["meanRAtEnd"] is None else "%.1f" % row["meanRAtEnd"],
            "-" if row["meanCAtEnd"] is None else "%.2f" % row["meanCAtEnd"]))
lines += ["", "Over the whole run (the workload's exactly-once check; its recovery latencies time injected drops only, "
          "and this run injects none):", "",
          "| variant | verdict | delivered / owed | LOST notices | end-to-end p50 / p99 / max (ms) |",
          "|---|---|---|---:|---|"]
for variant, _ in VARIANTS:
    v = report["variants"][variant]
    e = v["endToEndMs"]
    lines.append("| %s | %s | %d / %d | %d | %s / %s / %s |" % (
        v["label"], v["verdict"], v["delivered"], v["expected"], v["lostNotices"], e["p50"], e["p99"], e["max"]))
(out / "summary.md").write_text("\n".join(lines) + "\n")
print("\n".join(lines))
