"""The markdown summary of scripts/experiments/protocol-results: one row per simulator result JSON.

Usage: protocol_results_summary.py RESULTS_DIR
"""
import json, pathlib, re, sys
out = pathlib.Path(sys.argv[1])
def load(name):
    p = out / (name + ".json")
    return json.loads(p.read_text()) if p.exists() else None
def secs(r):
    return r["parameters"]["seconds"] + r["parameters"]["drainSeconds"]
def c(r, k):
    return r["counters"].get(k, 0)
def fmt(v, digits=1):
    return "%.*f" % (digits, v)

print("## Figure 2: (n=64, s=10), d groups per node, 1000 packets/s arriving per node, uniform 1 %, seed 1\n")
print("Latencies are means over measured losses, in ms. Recovered = measured losses delivered in the end. Control ="
      " non-data, non-proactive-repair packets arriving per node per second (SRM: requests, repairs, sessions;"
      " Ricochet and FEC: NAKs, retransmissions, session announcements).\n")
print("| d | per-stream rate (pkt/s) | 1/rate (ms) | SRM discovery | SRM recovery | SRM recovered % | SRM control | "
      "SRM no-session discovery | no-session recovery | no-session recovered % | no-session control | "
      "Ricochet discovery | Ricochet recovery | Ricochet recovered % (LEC %) | Ricochet control | Ricochet overhead % | "
      "FEC discovery | FEC recovery | FEC recovered % (FEC %) | FEC control | FEC overhead % |")
print("|" + "---|" * 22)
for d in (1, 2, 4, 8, 16, 32, 64, 128):
    s, q, ri, fe = (load("fig2-n64-d%d-%s" % (d, p)) for p in ("srm", "srm-nosessions", "ricochet", "fec"))
    if s is None:
        continue
    rate = s["parameters"]["sendRatePerNode"] / d
    row = ["%d" % d, "%.2f" % rate, "%.1f" % (1000 / rate)]
    row += [fmt(s["discoveryLatencyMs"]["mean"]), fmt(s["recoveryLatencyMs"]["mean"]),
            "%.2f" % (100 - s["unrecoveredPercent"]), fmt(s["controlPerNodePerSecond"])]
    if q:
        row += [fmt(q["discoveryLatencyMs"]["mean"]), fmt(q["recoveryLatencyMs"]["mean"]),
                "%.2f" % (100 - q["unrecoveredPercent"]), fmt(q["controlPerNodePerSecond"])]
    else:
        row += ["—"] * 4
    for r in (ri, fe):
        if r:
            row += [fmt(r["discoveryLatencyMs"]["mean"], 2), fmt(r["recoveryLatencyMs"]["mean"], 2),
                    "%.2f (%.2f)" % (100 - r["unrecoveredPercent"], r["lecRecoveryPercent"]),
                    fmt(r["controlPerNodePerSecond"]), fmt(r["overheadPercent"])]
        else:
            row += ["—"] * 5
    print("| " + " | ".join(row) + " |")

print("\nSRM per run (whole run, drain included; per node per second of traffic):\n")
print("| d | losses (measured) | discovery p50 / p99 / max ms | recovery p99 ms | requests sent | repairs sent | "
      "sessions sent | losses found by sessions / by requests (of detected) | no-session discovery p50 / p99 / max ms"
      " | no-session unrecovered |")
print("|" + "---|" * 10)
for d in (1, 2, 4, 8, 16, 32, 64, 128):
    s, q = load("fig2-n64-d%d-srm" % d), load("fig2-n64-d%d-srm-nosessions" % d)
    if s is None:
        continue
    n, t = s["parameters"]["nodes"], secs(s)
    dl = s["discoveryLatencyMs"]
    row = ["%d" % d, "%d" % s["losses"], "%.1f / %.1f / %.1f" % (dl["p50"], dl["p99"], dl["max"]),
           fmt(s["recoveryLatencyMs"]["p99"]),
           "%.2f" % (c(s, "SRM_REQUESTS_SENT") / n / t), "%.2f" % (c(s, "SRM_REPAIRS_SENT") / n / t),
           "%.2f" % (c(s, "SRM_SESSIONS_SENT") / n / t),
           "%d / %d (of %d)" % (c(s, "SRM_LOSSES_FROM_SESSIONS"), c(s, "SRM_LOSSES_FROM_REQUESTS"),
                                c(s, "LOSSES_DETECTED"))]
    if q:
        ql = q["discoveryLatencyMs"]
        row += ["%.1f / %.1f / %.1f" % (ql["p50"], ql["p99"], ql["max"]), "%d" % q["unrecovered"]]
    else:
        row += ["—", "—"]
    print("| " + " | ".join(row) + " |")

for scope in ("data", "all"):
    print("\n## Figure 12 setting: one group of n = s nodes, 200 packets/s arriving per node, uniform 1 %%, "
          "loss scope %s, seed 1\n" % scope)
    print("Control = non-data packets arriving per node per second. Sent counters are per node per second of "
          "traffic (measured + drain). Delivered = measured losses recovered.\n")
    print("| n | pbcast control | pbcast digests / requests / retransmits sent | pbcast delivered % | "
          "pbcast recovery mean / p99 ms | SRM control | SRM requests / repairs / sessions sent | "
          "SRM repairs per request | SRM requests + repairs arriving | SRM delivered % | SRM recovery mean / p99 ms |")
    print("|" + "---|" * 11)
    for n in (20, 40, 60, 80, 100):
        p, s = load("fig12-n%d-scope-%s-pbcast" % (n, scope)), load("fig12-n%d-scope-%s-srm" % (n, scope))
        if p is None or s is None:
            continue
        tp, ts = secs(p), secs(s)
        # Requests and repairs are multicast to the whole group: n - 1 arrivals each.
        rr = (c(s, "SRM_REQUESTS_SENT") + c(s, "SRM_REPAIRS_SENT")) * (n - 1) / n / ts
        print("| %d | %.1f | %.2f / %.2f / %.2f | %.3f | %.1f / %.1f | %.1f | %.2f / %.2f / %.2f | %.2f | %.1f | %.3f | "
              "%.1f / %.1f |" % (
                  n, p["controlPerNodePerSecond"],
                  c(p, "PBCAST_DIGESTS_SENT") / n / tp, c(p, "PBCAST_REQUESTS_SENT") / n / tp,
                  c(p, "PBCAST_RETRANSMITS_SENT") / n / tp, 100 - p["unrecoveredPercent"],
                  p["recoveryLatencyMs"]["mean"], p["recoveryLatencyMs"]["p99"],
                  s["controlPerNodePerSecond"],
                  c(s, "SRM_REQUESTS_SENT") / n / ts, c(s, "SRM_REPAIRS_SENT") / n / ts,
                  c(s, "SRM_SESSIONS_SENT") / n / ts,
                  c(s, "SRM_REPAIRS_SENT") / max(1, c(s, "SRM_REQUESTS_SENT")), rr, 100 - s["unrecoveredPercent"],
                  s["recoveryLatencyMs"]["mean"], s["recoveryLatencyMs"]["p99"]))

bad = [p.stem for p in sorted(out.glob("*.json")) if not json.loads(p.read_text())["verified"]]
print("\nVerification: " + ("every run verified (every payload intact, nothing delivered twice)." if not bad
                            else "FAILED: " + ", ".join(bad)))
