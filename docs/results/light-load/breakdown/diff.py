import json, sys, collections
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])); secs = float(sys.argv[3]); kind = sys.argv[4]
agg = collections.defaultdict(lambda: [0, 0, 0, 0])
n = 0
for proc in b:
    if not proc.startswith(kind): continue
    n += 1
    for tid, (comm, u, s, v, nv) in b[proc].items():
        u0, s0, v0, nv0 = a.get(proc, {}).get(tid, [comm, 0, 0, 0, 0])[1:]
        import re
        name = re.sub(r"\d+$", "#", comm)
        x = agg[name]; x[0] += u - u0; x[1] += s - s0; x[2] += v - v0; x[3] += nv - nv0
tot = [sum(x[i] for x in agg.values()) for i in range(4)]
print("%d %s processes over %.0f s; per process per second: ticks (10 ms) user/sys, voluntary cs, involuntary cs" % (n, kind, secs))
for name, x in sorted(agg.items(), key=lambda kv: -(kv[1][0] + kv[1][1])):
    if x[0] + x[1] + x[2] == 0: continue
    print("%-18s %7.2f %7.2f %8.1f %8.1f" % (name, x[0] / n / secs, x[1] / n / secs, x[2] / n / secs, x[3] / n / secs))
print("%-18s %7.2f %7.2f %8.1f %8.1f" % ("TOTAL", tot[0] / n / secs, tot[1] / n / secs, tot[2] / n / secs, tot[3] / n / secs))
