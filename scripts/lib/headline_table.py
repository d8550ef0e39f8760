#!/usr/bin/env python3
"""The headline table of docs/results.md from a run of scripts/experiments/headline.

Usage: headline_table.py OUT_DIR

Reads what each row's experiment wrote under OUT_DIR (the layout scripts/experiments/headline makes) and prints the
table in markdown, with the columns of docs/results.md's headline: figure, Ricochet, the peer's figure from the
same run, configuration, host, date, command. A row whose experiment was not run (or failed) says so.
"""
import csv
import datetime
import json
import os
import statistics
import sys

COLUMNS = ["figure", "Ricochet", "peer, same run", "configuration", "host", "date", "command"]


def num(value, decimals=0):
    """A number with a space between thousands, as docs/results.md writes them."""
    text = f"{value:,.{decimals}f}"
    return text.replace(",", " ")


def ms(value):
    if value < 1:
        return f"{value:.2f}"
    if value < 1000:
        return f"{value:.1f}"
    return num(value)


def delivered(ratio):
    if ratio >= 1:
        return "all delivered"
    if ratio >= 0.99:
        return f"{100 * ratio:.2f} % delivered"
    return f"{100 * ratio:.0f} % delivered"


def load(path):
    with open(path) as f:
        return json.load(f)


def read(path):
    with open(path) as f:
        return f.read().strip()


def command(out, row):
    path = os.path.join(out, row, "command.txt")
    return "`" + read(path) + "`" if os.path.exists(path) else ""


def short_machine(machine):
    """'Intel(R) Xeon(R) Processor, 2 cores, 24 GiB RAM, Linux ..., Java ...' -> its first two fields."""
    return ", ".join(machine.split(", ")[:2])


def date_of(text):
    return text[:10] if text else ""


def file_date(path):
    return datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc).strftime("%Y-%m-%d")


def host():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {os.cpu_count()} cores"


def trials(out, row):
    """The trials of a vs-jgroups run, keyed by (system, link, loss, size), and the run's machine and date."""
    path = os.path.join(out, row, "throughput.json")
    if not os.path.exists(path):
        return None
    run = load(path)
    by = {}
    for t in run["trials"]:
        c = t.get("conditions") or {}
        by[(t["system"], c.get("link"), c.get("loss"), t["payloadBytes"])] = t
    return by, short_machine(run.get("machine", "")), date_of(run.get("date", ""))


def tput(t):
    return num(t["perReceiverPerSecond"])


def link_rows(out):
    rows = []
    conf = "defaults; one process per member, each in a namespace on a veth bridge"
    got = trials(out, "mtu1500")
    if got:
        by, machine, date = got
        r, j, jl = (by.get((s, "mtu=1500", 0.0, 1000)) for s in ("ricochet", "jgroups", "jgroups-link"))
        if r and j:
            rows.append(["1 KB messages, 1 sender to 3 receivers, MTU 1 500 link, 0 % loss",
                         f"{tput(r)} msgs/s per receiver, {r['cpuMicrosPerDelivery']:.2f} µs CPU per delivery, "
                         f"p50 / p99 {ms(r['latencyMs']['p50'])} / {ms(r['latencyMs']['p99'])} ms",
                         f"JGroups stock: {tput(j)}, {j['cpuMicrosPerDelivery']:.2f} µs, "
                         f"{ms(j['latencyMs']['p50'])} / {ms(j['latencyMs']['p99'])} ms",
                         conf, machine, date, command(out, "mtu1500")])
        r, j, jl = (by.get((s, "mtu=1500", 0.01, 1000)) for s in ("ricochet", "jgroups", "jgroups-link"))
        if r and jl and j:
            rows.append(["the same, 1 % of IP packets dropped on the link",
                         f"{tput(r)} msgs/s, {delivered(r['deliveredRatio'])}, p99 {ms(r['latencyMs']['p99'])} ms",
                         f"JGroups tuned for the link: {tput(jl)} msgs/s, p99 {ms(jl['latencyMs']['p99'])} ms; "
                         f"stock: {delivered(j['deliveredRatio'])}",
                         "the same", machine, date, command(out, "mtu1500")])
    got = trials(out, "mtu9000")
    if got:
        by, machine, date = got
        r, jl = (by.get((s, "mtu=9000", 0.01, 1000)) for s in ("ricochet", "jgroups-link"))
        if r and jl:
            rows.append(["the same, MTU 9 000 link, 1 % loss",
                         f"{tput(r)} msgs/s, p99 {ms(r['latencyMs']['p99'])} ms",
                         f"JGroups tuned: {tput(jl)}, p99 {ms(jl['latencyMs']['p99'])} ms",
                         "the same (Ricochet keeps 1 KB datagrams)", machine, date, command(out, "mtu9000")])
    got = trials(out, "64B")
    if got:
        by, machine, date = got
        r, j, jl = (by.get((s, "mtu=1500", 0.0, 64)) for s in ("ricochet", "jgroups", "jgroups-link"))
        if r and j and jl:
            rows.append(["64-byte messages, MTU 1 500, 0 % loss",
                         f"{tput(r)} msgs/s, {r['cpuMicrosPerDelivery']:.2f} µs per delivery, "
                         f"p99 {ms(r['latencyMs']['p99'])} ms",
                         f"JGroups stock: {tput(j)} ({delivered(j['deliveredRatio'])}); tuned {tput(jl)}, "
                         f"p99 {ms(jl['latencyMs']['p99'])} ms",
                         "defaults (15 messages bundled per datagram)", machine, date, command(out, "64B")])
    got = trials(out, "half-rate")
    if got:
        by, machine, date = got
        r, j = (by.get((s, "mtu=1500", 0.0, 1000)) for s in ("ricochet", "jgroups"))
        if r and j:
            rate = read(os.path.join(out, "half-rate", "rate.txt"))
            rows.append([f"half of Ricochet's top rate ({num(int(rate))} msgs/s offered), 1 KB",
                         f"p50 / p99 {ms(r['latencyMs']['p50'])} / {ms(r['latencyMs']['p99'])} ms, "
                         f"{r['cpuMicrosPerDelivery']:.1f} µs per delivery",
                         f"JGroups stock: {ms(j['latencyMs']['p50'])} / {ms(j['latencyMs']['p99'])} ms, "
                         f"{j['cpuMicrosPerDelivery']:.1f} µs",
                         "defaults", machine, date, command(out, "half-rate")])
    return rows


def light_row(out):
    path = os.path.join(out, "light", "recovery.json")
    if not os.path.exists(path):
        return []
    run = load(path)
    by = {t["system"]: t for t in run["trials"]}
    r, j = by.get("ricochet"), by.get("jgroups")
    if not (r and j):
        return []
    t = r
    members, degree = t["members"], t["groupsPerMember"]

    def lat(x):
        m = x["latencyMs"]
        return f"{ms(m['p50'])} / {ms(m['p99'])} / {ms(m['max'])} ms"
    return [[f"light load: {members} members, each in all {degree} groups, 100 msgs/s each, 1 % loss",
             f"{r['cpuMicrosPerDelivery']:.0f} µs CPU per delivery; latency p50 / p99 / max {lat(r)}; "
             f"{delivered(r['deliveredRatio'])}",
             f"JGroups stock: {j['cpuMicrosPerDelivery']:.0f} µs; {lat(j)}; {delivered(j['deliveredRatio'])}",
             "defaults; processes on loopback, each system's own loss injector",
             short_machine(run.get("machine", "")), date_of(run.get("date", "")), command(out, "light")]]


def cluster_row(out):
    path = os.path.join(out, "cluster", "cluster-vs-sim.csv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        table = {row[0]: row[1:] for row in csv.reader(f) if row}
    real = lambda k: table[k][0]  # noqa: E731
    sim = lambda k: table[k][1]  # noqa: E731
    e2e = [float(x) for x in real("end-to-end latency p50 / p99 / max (ms)").split(" / ")]
    verdict = real("exactly once").split(" ")[0]
    return [["real cluster against the simulator (n = 8, d = 16, 100 msgs/s per node, 1 %)",
             f"{verdict}; LEC recovery p99 {float(real('LEC recovery latency p99 (ms)')):.1f} ms; end-to-end p50 / p99 "
             f"{e2e[0]:.1f} / {e2e[1]:.1f} ms; {real('daemon CPU per delivered message (us)')} µs of daemon CPU per "
             f"delivered message ({real('daemon CPU per delivered message without the JIT compiler threads (us)')} "
             f"without the JIT)",
             f"the simulator, same groups: LEC p99 {float(sim('LEC recovery latency p99 (ms)')):.1f} ms",
             "`scripts/cluster`, 8 daemons, defaults, authenticated", host(), file_date(path), command(out, "cluster")]]


def idle_row(out):
    path = os.path.join(out, "idle", "idle.json")
    if not os.path.exists(path):
        return []
    d = load(path)
    return [["an idle daemon",
             f"{d['cpuPercentOfCore']:.2f} % of a core, {d['threads']} threads, {d['rssKiB'] // 1024} MiB RSS",
             "—", "the unit's JVM options (ZGC, `-Xmx512m`)", host(), file_date(path), command(out, "idle")]]


def startup_row(out):
    path = os.path.join(out, "startup", "up-ms.txt")
    if not os.path.exists(path):
        return []
    values = [int(x) for x in read(path).split()]
    if not values:
        return []
    return [["start-up", f"`up` {num(statistics.median_low(values))} ms after the JVM started (median of "
             f"{len(values)}: {', '.join(num(v) for v in values)})", "—", "`scripts/cluster`, one node", host(),
             file_date(path), command(out, "startup")]]


def lec_row(out):
    path = os.path.join(out, "lec", "lec.json")
    if not os.path.exists(path):
        return []
    d = load(path)
    return [["LEC alone at the paper's reference point (n = 64, d = 128, s = 10, 1 %)",
             f"{d['lecRecoveryPercent']:.2f} % of losses recovered, {d['xorsPerDataPacket']:.2f} XORs per packet, "
             f"{d['overheadPercent']:.1f} % overhead",
             "the paper: about 98-99 %, under 5 XORs", f"simulator, seed {d.get('seed', 1)}", host(),
             file_date(path), command(out, "lec")]]


def large_row(out):
    path = os.path.join(out, "large", "verdict.txt")
    if not os.path.exists(path):
        return []
    verdict = read(path)
    text = ("16 MiB and 1 MiB messages of two senders at 5 % injected loss: each delivered whole, once, FIFO in order"
            " (`LargeMessagesTest`)") if verdict == "PASSED" else f"`LargeMessagesTest` {verdict}"
    return [["messages of any size (issue 34)", text, "—", "defaults, three daemons on loopback", host(),
             file_date(path), command(out, "large")]]


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    rows = (link_rows(out) + light_row(out) + cluster_row(out) + idle_row(out) + startup_row(out) + lec_row(out)
            + large_row(out))
    print("| " + " | ".join(COLUMNS) + " |")
    print("|" + "---|" * len(COLUMNS))
    for row in rows:
        print("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    failed = os.path.join(out, "failed.txt")
    if os.path.exists(failed):
        print()
        print("Failed, so missing from the table or short of runs:")
        for line in read(failed).splitlines():
            print(f"- {line}")
    if os.path.exists(os.path.join(out, "quick.txt")):
        print()
        print("QUICK RUN: short smoke runs that check every row's experiment runs; these numbers are no measurement.")


if __name__ == "__main__":
    main()
