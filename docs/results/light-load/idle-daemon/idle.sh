#!/bin/bash
# idle-daemon readings: $1 label, $2 JVM options
cd /work/main
label=$1; opts=$2; dir=/tmp/s18/idle-$label
RICOCHET_CLUSTER_DAEMON_JAVA_OPTS="$opts" timeout 180 scripts/cluster up --nodes 2 --racks 1 --gms 1 --gms-replicas 1 --run-dir $dir > $dir.up.log 2>&1
P=$(pgrep -f "ricochet.jar daemon --node-id 1 " | head -1)
sleep 60
snap() { for t in /proc/$P/task/*; do n=$(tr ' ' '_' < $t/comm); s=$(sed 's/.*) //' $t/stat); echo "$(basename $t) $n $(echo $s | awk '{print $12+$13}')"; done | sort; }
snap > $dir.a; cs1=$(cat /proc/$P/task/*/status | awk '/voluntary_ctxt/ {s+=$2} END {print s}')
sleep 60
snap > $dir.b; cs2=$(cat /proc/$P/task/*/status | awk '/voluntary_ctxt/ {s+=$2} END {print s}')
{
echo "label=$label opts=$opts"
echo "threads=$(ls /proc/$P/task | wc -l) rss_kb=$(awk '/VmRSS/ {print $2}' /proc/$P/status)"
join $dir.a $dir.b | awk '{d=$5-$3; t+=d; if (d>0) printf "%s:%d ", $2, d} END {printf "\ntotal_ticks_60s=%d (%.3f %% of a core)\n", t, t/60}'
echo "ctxsw_60s=$((cs2-cs1))"
echo "threads: $(awk '{print $2}' $dir.b | sort | uniq -c | awk '{printf "%s(%s) ", $2, $1}')"
} > $dir.result
scripts/cluster down --run-dir $dir > /dev/null 2>&1
