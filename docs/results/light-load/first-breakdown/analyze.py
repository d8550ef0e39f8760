# Reads threads-a.txt and threads-b.txt (per daemon thread: node, tid, utime, stime, voluntary and involuntary
# context switches, name) and prints the per-kind table of docs/results.md, "Light load". Usage: analyze.py [DIR [DELIVERIES_PER_S]]
# (DIR: the folder of the readings, by default this script's own)
import re, collections, sys
import os
out=sys.argv[1] if len(sys.argv)>1 else os.path.dirname(os.path.abspath(__file__))
def load(s):
    d={}
    for line in open(f'{out}/threads-{s}.txt'):
        n,tid,ut,st,v,nv,comm=line.split()
        if '_' in comm:
            # The thread's name had a space ('C2 CompilerThre'): the reading's awk took fields 14 and 15 of a stat
            # line whose name is two words, i.e. fields 13 and 14 of the real line (cmajflt, utime). utime is
            # right, stime was not read.
            ut, st = st, '0'
        d[(n,tid)]=(int(ut),int(st),int(v),int(nv),comm)
    return d
a,b=load('a'),load('b')
secs=float(open(f'{out}/time-b.txt').read())-float(open(f'{out}/time-a.txt').read())
kind=lambda c: re.sub(r'[-_#]?\d+(-\d+)*$','',c).replace('C2_CompilerThre','C2 compiler').replace('C1_CompilerThre','C1 compiler')
agg=collections.defaultdict(lambda:[0,0,0,0,0])
for k,vb in b.items():
    if k not in a: continue
    va=a[k]; g=kind(vb[4])
    x=agg[g]; x[0]+=vb[0]-va[0]; x[1]+=vb[1]-va[1]; x[2]+=vb[2]-va[2]; x[3]+=vb[3]-va[3]; x[4]+=1
deliv=float(sys.argv[2]) if len(sys.argv)>2 else 5600.0
tot=sum(x[0]+x[1] for x in agg.values())
print(f'window {secs:.1f} s, deliveries/s {deliv:.0f}, all daemons CPU {tot/100/secs*100:.1f}% of a core, {tot*10000/secs/deliv:.1f} us per delivery')
print('| thread kind | threads (8 daemons) | CPU % of a core (all daemons) | user / sys ticks | µs per delivered message | wake-ups (voluntary ctx sw) per delivery | involuntary per delivery |')
print('|---|---:|---:|---|---:|---:|---:|')
for g,x in sorted(agg.items(), key=lambda kv:-(kv[1][0]+kv[1][1])):
    t=x[0]+x[1]
    if t==0 and x[2]==0: continue
    print(f'| {g} | {x[4]} | {t/secs:.1f} | {x[0]} / {x[1]} | {t*10000/secs/deliv:.2f} | {x[2]/secs/deliv:.3f} | {x[3]/secs/deliv:.3f} |')
print('threads per daemon:', sum(x[4] for x in agg.values())/8)
