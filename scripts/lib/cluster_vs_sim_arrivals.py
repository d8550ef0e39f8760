"""Data packets arriving per node per second in a real cluster run, from its workload summary.

Usage: cluster_vs_sim_arrivals.py SUMMARY_JSON NODES
"""
import json, sys
t = json.load(open(sys.argv[1]))["totals"]
if t["expected"] <= 0 or t["sendSeconds"] <= 0:
    sys.exit("the real run sent nothing")
print(round(t["expected"] / int(sys.argv[2]) / t["sendSeconds"], 3))
