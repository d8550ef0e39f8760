#!/bin/bash
# Record of the start-up runs of docs/results.md "Start-up" (session 19): ran from /work/main with the jar under test
# copied to ricochet-core/target/ricochet.jar; /tmp/s19 held the run folders.
# start-to-up of daemon 1: $1 label, $2 JVM options; prints ms from the process's start to its "up" line
cd /work/main
label=$1; opts=$2; dir=/tmp/s19/up-$label
rm -rf $dir
RICOCHET_CLUSTER_DAEMON_JAVA_OPTS="$opts" timeout 180 scripts/cluster up --nodes 1 --racks 1 --gms 1 --gms-replicas 1 --run-dir $dir > $dir.up.log 2>&1
P=$(pgrep -f "ricochet.jar daemon --node-id 1 " | head -1)
hz=$(getconf CLK_TCK); boot=$(awk '/btime/ {print $2}' /proc/stat)
st=$(awk '{print $22}' /proc/$P/stat)
up=$(grep -m1 " up (" $dir/logs/node-1.log | cut -d' ' -f1)
python3 -c "
import datetime
start=$boot + $st/$hz
d=datetime.datetime.fromtimestamp(start)
h,m,s='$up'.split(':'); upt=int(h)*3600+int(m)*60+float(s)
st=d.hour*3600+d.minute*60+d.second+d.microsecond/1e6
print('$label', 'start-to-up ms', round((upt-st)*1000))"
echo "$label rss_kb=$(awk '/VmRSS/ {print $2}' /proc/$P/status) threads=$(ls /proc/$P/task | wc -l)"
scripts/cluster down --run-dir $dir > /dev/null 2>&1
