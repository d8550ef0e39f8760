#!/bin/bash
# measure.sh REPO OUT: a fresh cluster from REPO's scripts, the reference workload (8 nodes, all 64 groups, 100 msg/s
# per node, 1 % injected loss), per-thread snapshots 30 s and 90 s after sending started, node 1's
# stats at both; the cluster taken down after.
REPO=$1; OUT=$2; RUN=$OUT/run; mkdir -p $OUT; cd $REPO
scripts/cluster up --run-dir $RUN --inject-loss uniform:0.01 > $OUT/up.log 2>&1 || { echo up failed; exit 1; }
(scripts/cluster run-workload --run-dir $RUN --groups 64 --degree 64 --rate 100 --seconds 95 --seed 1 > $OUT/wl.log 2>&1; touch $OUT/wl.done) &
until grep -q "sending for" $OUT/wl.log 2>/dev/null; do sleep 0.5; done
sleep 30; python3 "$(dirname "$0")"/threads.py $RUN $OUT/s1.json; scripts/cluster exec 1 --run-dir $RUN -- ricochet stats > $OUT/stats1.txt 2>&1
sleep 60; python3 "$(dirname "$0")"/threads.py $RUN $OUT/s2.json; scripts/cluster exec 1 --run-dir $RUN -- ricochet stats > $OUT/stats2.txt 2>&1
for k in node workload gms fd; do python3 "$(dirname "$0")"/diff.py $OUT/s1.json $OUT/s2.json 60 $k; done > $OUT/threads.txt
while [ ! -e $OUT/wl.done ]; do sleep 2; done
scripts/cluster down --run-dir $RUN > $OUT/down.log 2>&1
