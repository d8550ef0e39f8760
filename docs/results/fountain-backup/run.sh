#!/usr/bin/env bash
# The fountain backup against per-packet NAK (docs/results.md, "Fountain backup behind LEC"); run from the
# repository root after `mvn -q -B package -DskipTests` (scripts/ricochet uses ricochet-core/target/ricochet.jar).
set -euo pipefail
out=docs/results/fountain-backup
: > "$out/simulate-output.txt"
for seed in 1 2 3; do
    for fb in off on; do
        scripts/ricochet simulate --nodes 64 --degree 128 --group-size 10 --loss bursty:0.01:100 --stagger 1 \
            --seconds 5 --seed "$seed" --fountain-backup "$fb" --quiet --json "$out/fig14-seed$seed-$fb.json" >> "$out/simulate-output.txt"
        scripts/ricochet simulate --nodes 4 --degree 1 --group-size 4 --loss bursty:0.01:100 --stagger 1 \
            --seconds 30 --seed "$seed" --fountain-backup "$fb" --quiet --json "$out/one-group-seed$seed-$fb.json" >> "$out/simulate-output.txt"
        scripts/ricochet simulate --nodes 4 --degree 1 --group-size 4 --loss bursty:0.2:100 --stagger 1 \
            --seconds 10 --seed "$seed" --fountain-backup "$fb" --quiet --json "$out/one-group-20pc-seed$seed-$fb.json" >> "$out/simulate-output.txt"
    done
done
python3 "$out/table.py" "$out" | tee "$out/table.md"
