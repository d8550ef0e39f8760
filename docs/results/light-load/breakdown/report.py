"""Prints the comparison of the four runs in this folder (old1, old2: build 1970008; new1, new2: the SESSIONS build):
node 1's counters over the 60 s window, per second, and the per-thread CPU of the eight daemons (threads.txt).
Usage: python3 report.py"""
import os, re

HERE = os.path.dirname(os.path.abspath(__file__))


def counters(path):
    found = {}
    for line in open(path):
        m = re.match(r'\s*([A-Z_]+)\s+(-?\d+)\s*$', line)
        if m:
            found[m.group(1)] = int(m.group(2))
    return found


def threads(path):
    rows, kind = {}, None
    for line in open(path):
        if 'processes over' in line:
            kind = line.split()[1]
            continue
        p = line.split()
        rows[(kind, ' '.join(p[:-4]))] = [float(x) for x in p[-4:]]
    return rows


for run in ('old1', 'old2', 'new1', 'new2'):
    a, b = counters(os.path.join(HERE, run, 'stats1.txt')), counters(os.path.join(HERE, run, 'stats2.txt'))
    rate = lambda k: (b.get(k, 0) - a.get(k, 0)) / 60.0
    t = threads(os.path.join(HERE, run, 'threads.txt'))
    ms = lambda name: (t[('node', name)][0] + t[('node', name)][1]) * 10 if ('node', name) in t else 0.0
    engine, total = ms('ricochet-engine'), ms('TOTAL')
    jit = ms('C2 CompilerThre') + ms('C1 CompilerThre')
    others = rate('DATA_RECEIVED')
    sessions = rate('SESSION_FRAMES_RECEIVED') if 'SESSION_FRAMES_RECEIVED' in b else rate('SESSIONS_RECEIVED')
    read = (rate('DATA_RECEIVED') + rate('REPAIRS_RECEIVED') + rate('STABLES_RECEIVED') + rate('OWN_DATAGRAMS')
            + rate('RETRANSMITS_RECEIVED') + rate('NAKS_RECEIVED') + sessions)
    print('%s: node 1 per second: data received %.0f, datagrams read %.0f (announcement datagrams %.0f, own looped '
          'back %.0f), wake-ups (RX_BATCHES) %.0f' % (run, others, read, sessions, rate('OWN_DATAGRAMS'),
                                                      rate('RX_BATCHES')))
    print('   a daemon per second (mean of 8): engine thread %.1f ms (%d voluntary switches), all threads %.1f ms, of '
          'which JIT %.1f; per data packet received: engine %.0f us, daemon without JIT %.0f, with %.0f'
          % (engine, t[('node', 'ricochet-engine')][2], total, jit, engine * 1000 / others,
             (total - jit) * 1000 / others, total * 1000 / others))
