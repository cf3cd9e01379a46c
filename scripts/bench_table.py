#!/usr/bin/env python3
"""Turns `normjit bench` output into a markdown table next to the peer baseline.

usage: scripts/bench_table.py BENCH_OUTPUT [PEER_CSV]
PEER_CSV defaults to ../shared/bench/baseline-h200.csv (peers measured on the same H200 model
with the same method: L2 cleared by a read-only pass, inputs rotated from HBM, events around
one call, median). The peers were not re-run in the same process: ratios are indicative.
"""
import csv
import math
import os
import sys


def main() -> int:
    bench = sys.argv[1]
    peers_csv = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(__file__), "..", "..", "shared", "bench", "baseline-h200.csv")
    peer = {}
    with open(peers_csv) as f:
        for r in csv.DictReader(f):
            if "copy" in r["candidate"]:
                continue
            key = (r["op"], int(r["tokens"]), int(r["hidden"]))
            us = float(r["gpu_us_median"])
            if key not in peer or us < peer[key][0]:
                peer[key] = (us, r["candidate"])
    copy = None
    rows = []
    with open(bench) as f:
        for line in f:
            if line.startswith("device-to-device copy"):
                copy = line.split(":")[1].strip()
            parts = line.split()
            if len(parts) == 10 and parts[2].isdigit():
                rows.append(parts)
    print(f"Copy ceiling measured in the same process: {copy}.\n")
    print("| op | tokens | hidden | config | normjit µs (p10-p90) | GB/s | % of copy | fastest peer µs | normjit / peer |")
    print("|---|---:|---:|---|---:|---:|---:|---|---:|")
    logs = []
    for op, dt, t, h, cfg, med, p10, p90, gbs, pct in rows:
        key = (op, int(t), int(h))
        p = peer.get(key)
        ratio = float(med) / p[0] if p else float("nan")
        if p:
            logs.append(math.log(ratio))
        peer_s = f"{p[0]:.2f} ({p[1]})" if p else "n/a"
        print(f"| {op} | {t} | {h} | {cfg} | {med} ({p10}-{p90}) | {gbs} | {pct} | {peer_s} | {ratio:.3f} |")
    if logs:
        print(f"\nGeometric mean of normjit / fastest peer over {len(logs)} shapes: "
              f"{math.exp(sum(logs) / len(logs)):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
