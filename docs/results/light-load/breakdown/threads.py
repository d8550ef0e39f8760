"""Per-thread CPU ticks and voluntary context switches of every pid in RUN/pids/*.pid, snapshot to JSON."""
import json, pathlib, sys, re
run = pathlib.Path(sys.argv[1]); out = sys.argv[2]
snap = {}
for pidfile in sorted((run / "pids").glob("*.pid")):
    pid = pidfile.read_text().strip()
    threads = {}
    for task in pathlib.Path("/proc/%s/task" % pid).glob("*"):
        try:
            stat = (task / "stat").read_text()
            status = (task / "status").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        f = stat[stat.rindex(")") + 2:].split()
        vol = int(re.search(r"voluntary_ctxt_switches:\s+(\d+)", status).group(1))
        nonvol = int(re.search(r"nonvoluntary_ctxt_switches:\s+(\d+)", status).group(1))
        threads[task.name] = [comm, int(f[11]), int(f[12]), vol, nonvol]
    snap[pidfile.stem] = threads
json.dump(snap, open(out, "w"))
