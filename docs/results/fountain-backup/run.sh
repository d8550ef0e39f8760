#!/usr/bin/env bash
# The fountain backup against per-packet NAK (docs/results.md, "Fountain backup behind LEC"); run from the
# repository root after `mvn -q -B package -DskipTests` (scripts/ricochet uses ricochet-core/target/ricochet.jar).
set -euo pipefail
out=docs/results/fountain-backup
for seed in 1 2 3; do
    for fb in off on; do
        scripts/ricochet simulate --nodes 64 --degree 128 --group-size 10 --loss bursty:0.01:100 --stagger 1 \
            --seconds 5 --seed "$seed" --fountain-backup "$fb" --quiet --json "$out/fig14-seed$seed-$fb.json"
        scripts/ricochet simulate --nodes 4 --degree 1 --group-size 4 --loss bursty:0.01:100 --stagger 1 \
            --seconds 30 --seed "$seed" --fountain-backup "$fb" --quiet --json "$out/one-group-seed$seed-$fb.json"
    done
done
