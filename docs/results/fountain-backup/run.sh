#!/bin/bash
cd /work/wt-backup/ricochet-core
CP=target/classes:$(mvn -q -B -o dependency:build-classpath -Dmdep.outputFile=/dev/stdout)
OUT=/work/wt-backup/docs/results/fountain-backup
for seed in 1 2 3; do for fb in off on; do
  java -cp $CP io.ricochet.cli.RicochetMain simulate --nodes 64 --degree 128 --group-size 10 --loss bursty:0.01:100 --stagger 1 --seconds 5 --seed $seed --fountain-backup $fb --quiet --json $OUT/fig14-seed$seed-$fb.json
  java -cp $CP io.ricochet.cli.RicochetMain simulate --nodes 4 --degree 1 --group-size 4 --loss bursty:0.01:100 --stagger 1 --seconds 30 --seed $seed --fountain-backup $fb --quiet --json $OUT/one-group-seed$seed-$fb.json
done; done
echo finished
