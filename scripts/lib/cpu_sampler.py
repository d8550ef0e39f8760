"""CPU used by each process of a cluster run while an experiment's workload runs.

Usage: cpu_sampler.py RUN_DIR OUT_JSON
Every 0.5 s it reads utime + stime (/proc/PID/stat, fields 14 and 15) of every PID recorded in RUN_DIR/pids/*.pid
and keeps the first and the last reading of each. On SIGTERM or SIGINT it writes OUT_JSON: name -> CPU seconds used
between the first and the last reading (a process started after the sampler, such as a workload client, counts
from 0), and exits. A process's last half second before it exits can be missed.
"""
import json, os, pathlib, signal, sys, time

run_dir, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
tick = os.sysconf("SC_CLK_TCK")
first, last = {}, {}
started = time.monotonic()
stop = False


def on_signal(signum, frame):
    global stop
    stop = True


def cpu_ticks(pid):
    try:
        stat = pathlib.Path("/proc/%s/stat" % pid).read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()   # after "pid (comm) ": field 3 is fields[0]
    return int(fields[11]) + int(fields[12])


signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)
initial = True
while not stop:
    for pid_file in (run_dir / "pids").glob("*.pid"):
        name = pid_file.stem
        try:
            pid = pid_file.read_text().strip()
        except OSError:
            continue
        ticks = cpu_ticks(pid)
        if ticks is None:
            continue
        if name not in first:
            first[name] = ticks if initial else 0
        last[name] = ticks
    initial = False
    time.sleep(0.5)
out.write_text(json.dumps({
    "seconds": round(time.monotonic() - started, 1),
    "cpuSeconds": {name: round((last[name] - first[name]) / tick, 2) for name in sorted(last)},
}, indent=2) + "\n")
