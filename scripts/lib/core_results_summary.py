"""The markdown summary table of scripts/experiments/core-results: one row per simulator result JSON.

Usage: core_results_summary.py RESULTS_DIR
"""
import json, pathlib, sys
rows = []
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    r = json.loads(path.read_text())
    p = r["parameters"]
    lat = r["recoveryLatencyMs"]
    rows.append("| %s | %d/%d/%d | %s | %s | %d | %d | %.2f | %.2f | %d | %.2f / %.2f / %.2f / %.2f | %.2f | %.2f | %.3f | %s |" % (
        path.stem, p["nodes"], p["degree"], p["groupSize"], p["loss"], "on" if p["nak"] else "off",
        r["dataPackets"], r["losses"], r["lecRecoveryPercent"], r["nakRecoveryPercent"], r["unrecovered"],
        lat["mean"], lat["p50"], lat["p99"], lat["max"], r["discoveryLatencyMs"]["max"],
        r["overheadPercent"], r["xorsPerDataPacket"], "yes" if r["verified"] else "NO"))
print("| run | n/d/s | loss | NAK | data pkts | losses | LEC % | NAK % | unrecovered | recovery ms mean / p50 / p99 / max | discovery max ms | overhead % | XORs/pkt | verified |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
