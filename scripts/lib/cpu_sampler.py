"""CPU used by each process of a cluster run while an experiment's workload runs.

Usage: cpu_sampler.py RUN_DIR OUT_JSON
Every 0.5 s it reads utime + stime (/proc/PID/stat, fields 14 and 15) of every PID recorded in RUN_DIR/pids/*.pid,
and of the JIT compiler threads of each daemon (node-*: /proc/PID/task/*/stat, threads named "C1 CompilerThre..."
and "C2 CompilerThre..."), and keeps the first and the last reading of each. On SIGTERM or SIGINT it writes OUT_JSON:
cpuSeconds, name -> CPU seconds used between the first and the last reading (a process started after the sampler,
such as a workload client, counts from 0), compilerSeconds, the same for the compiler threads alone (a JVM's
warm-up: it falls to nearly nothing once the hot code is compiled), wakeups, the voluntary context switches of each
daemon's threads in all (/proc/PID/task/*/status, read every 2 s: each is a thread that blocked and was woken
again), and exits. A process's last half second before it exits can be missed.
"""
import json, os, pathlib, signal, sys, time

run_dir, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
tick = os.sysconf("SC_CLK_TCK")
first, last = {}, {}
compiler_first, compiler_last = {}, {}
wakeups_first, wakeups_last = {}, {}
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


def thread_files(pid, name):
    """The text of /proc/PID/task/*/NAME for every thread alive now (a thread that ends meanwhile is skipped), or
    None if the process is gone."""
    try:
        tasks = list(pathlib.Path("/proc/%s/task" % pid).iterdir())
    except OSError:
        return None
    texts = []
    for task in tasks:
        try:
            texts.append((task / name).read_text())
        except OSError:
            continue   # the thread ended between the listing and the read
    return texts


def compiler_ticks(pid):
    """utime + stime of the process's JIT compiler threads (C1 and C2), summed over the threads alive now."""
    stats = thread_files(pid, "stat")
    if stats is None:
        return None
    total = 0
    for stat in stats:
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        if name.startswith(("C1 CompilerThre", "C2 CompilerThre")):
            fields = stat[stat.rindex(")") + 2:].split()
            total += int(fields[11]) + int(fields[12])
    return total


def voluntary_switches(pid):
    """voluntary_ctxt_switches summed over the process's threads alive now."""
    statuses = thread_files(pid, "status")
    if statuses is None:
        return None
    return sum(int(line.split()[1]) for status in statuses for line in status.splitlines()
               if line.startswith("voluntary_ctxt_switches:"))


signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)
initial = True
rounds = 0
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
        # Only the daemons' compiler threads are reported: the other processes' are not read (less of the
        # sampler's own work on the host it measures).
        compiling = compiler_ticks(pid) if name.startswith("node-") else None
        if compiling is not None:
            if name not in compiler_first:
                compiler_first[name] = compiling if initial else 0
            # A compiler thread that ended takes its time with it: never let the reading go back.
            compiler_last[name] = max(compiling, compiler_last.get(name, 0))
        switches = voluntary_switches(pid) if name.startswith("node-") and (initial or rounds % 4 == 0) else None
        if switches is not None:
            if name not in wakeups_first:
                wakeups_first[name] = switches if initial else 0
            wakeups_last[name] = max(switches, wakeups_last.get(name, 0))
    initial = False
    rounds += 1
    time.sleep(0.5)
out.write_text(json.dumps({
    "seconds": round(time.monotonic() - started, 1),
    "cpuSeconds": {name: round((last[name] - first[name]) / tick, 2) for name in sorted(last)},
    "compilerSeconds": {name: round((compiler_last[name] - compiler_first[name]) / tick, 2)
                        for name in sorted(compiler_last)},
    "wakeups": {name: wakeups_last[name] - wakeups_first[name] for name in sorted(wakeups_last)},
}, indent=2) + "\n")
