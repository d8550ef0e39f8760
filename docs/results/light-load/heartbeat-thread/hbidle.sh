#!/bin/bash
# Record of docs/results.md "The idle daemon" (session 19, heartbeat thread without Netty): ran from /work/main; the
# "before" runs with the build before the change copied to ricochet-core/target/ricochet.jar.
# idle heartbeat cost: $1 label. 2-node cluster, node 1 idle; after 60 s, the heartbeat thread's ticks and
# wake-ups over 60 s, and every thread's ticks.
cd /work/main
label=$1; dir=/tmp/s19/hb-$label; rm -rf $dir
timeout 180 scripts/cluster up --nodes 2 --racks 1 --gms 1 --gms-replicas 1 --run-dir $dir > $dir.up.log 2>&1
P=$(pgrep -f "ricochet.jar daemon --node-id 1 " | head -1)
sleep 60
snap() { for t in /proc/$P/task/*; do echo "$(cat $t/comm | tr ' ' _) $(awk '{print $14+$15}' $t/stat) $(awk '/^voluntary/ {print $2}' $t/status)"; done | sort; }
a=$(snap); sleep 60; b=$(snap)
echo "== $label $(date -u +%H:%M:%S)"
paste <(echo "$a") <(echo "$b") | awk '{d=$5-$2; c=$6-$3; t+=d; if (d>0) printf "%s ticks=%d wakeups=%d\n", $1, d, c} END {printf "total ticks/60s=%d (%.3f %% of a core)\n", t, t/60}'
grep -h "counters" $dir/logs/node-1.log | tail -1 | grep -o "HEARTBEATS_ANSWERED=[0-9]*"
scripts/cluster down --run-dir $dir > /dev/null 2>&1
