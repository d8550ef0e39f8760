#!/usr/bin/env python3
"""The table of docs/results.md, "Fountain backup behind LEC", from the JSON files run.sh writes (argument: their
folder). Retransmissions and symbols are what the senders put on the wire to repair."""
import json
import pathlib
import sys

SETTINGS = [("fig14", "Figure 14: n=64, d=128, s=10, bursts of 100 at 1 %"),
            ("one-group", "one group: n=4, s=4, bursts of 100 at 1 %"),
            ("one-group-20pc", "one group: n=4, s=4, bursts of 100 at 20 %")]


def main():
    folder = pathlib.Path(sys.argv[1])
    print("| setting | seed | backup | losses | LEC | NAK | fountain | unrecovered | latency mean ms | p99 ms "
          "| retransmissions | symbols sent | ranges coded | ranges answered NAK by NAK | repair packets in all |")
    print("|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for prefix, name in SETTINGS:
        for seed in (1, 2, 3):
            for backup in ("off", "on"):
                path = folder / f"{prefix}-seed{seed}-{backup}.json"
                if not path.exists():
                    continue
                d = json.loads(path.read_text())
                c = d["counters"]
                lat = d["recoveryLatencyMs"]
                retrans = c.get("RETRANSMITS_SENT", 0)
                symbols = c.get("FOUNTAIN_SYMBOLS_SENT", 0)
                on = backup == "on"
                print(f"| {name} | {seed} | {backup} | {d['losses']} | {d['lecRecovered']} | {d['nakRecovered']} | "
                      f"{d.get('fountainRecovered', 0) if on else '-'} | {d['unrecovered']} | {lat['mean']:.1f} | "
                      f"{lat['p99']:.1f} | {retrans} | {symbols if on else '-'} | "
                      f"{c.get('FOUNTAIN_RANGES_SENT', 0) if on else '-'} | "
                      f"{c.get('FOUNTAIN_RANGES_ANSWERED_AS_NAKS', 0) if on else '-'} | {retrans + symbols} |")


if __name__ == "__main__":
    main()
