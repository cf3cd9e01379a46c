#!/usr/bin/env python3
"""Issue 4's target figures from the CSV that scripts/peers_bench.py writes (--csv). Needs no GPU
and no torch, so a table can be read anywhere:

  python3 scripts/peers/targets.py TABLE.csv [OTHER.csv]
  python3 scripts/peers/targets.py --table TABLE.csv [MORE.csv ...]

For each CSV: the geometric mean of normjit / fastest peer over all shapes, per op and per token
class (1-128 tokens, the launch-bound decode sizes; 512 and more, the bandwidth-bound ones); the
shapes where a peer is faster, and those behind by more than 2 %; and target 2's first half, the
shapes that move at least 64 MiB and how many of them normjit runs at >= 97 % of the copy ceiling
measured in the same process (a 1 GiB copy), and, where the table has it, of `ref-copy`, one copy
of the same bytes timed beside each shape (at 64-256 MiB a copy's own launch and tail keep it
under the 1 GiB ceiling too). Where the CSV has them (ratio_paired, ratio_lo, ratio_hi on
normjit's rows: normjit against the fastest peer round by round, paired_ratio_interval), a shape
behind also gets that median and its 90 % interval, and the shapes behind beyond that noise (the
interval above 1) are counted. With a second CSV (another run, another commit)
every shape's normjit time and ratio are printed side by side. With --table, one compact
Markdown table of the CSVs' shapes instead (docs/benchmarks.md quotes it): normjit's time, the
fastest peer's, their ratio (with the paired 90 % interval where a shape is behind), the
same-bytes copy's time and normjit's % of the 1 GiB copy.
"""
import csv
import math
import random
import statistics
import sys

PEERS = ("eager", "compile", "compile-maxat", "liger", "flashinfer")
BIG_BYTES = 64 * 2**20  # target 2: ">= 64 MiB move"
COPY_TARGET = 97.0      # target 2: ">= 97 % of the copy bandwidth"
BEHIND_BY = 1.02        # the tables mark "behind by more than 2 %" separately
INTERVAL = 0.90         # the level of paired_ratio_interval


def paired_ratio_interval(num, den, level=INTERVAL, resamples=1000, seed=1):
    """The median of the per-round ratios num[i] / den[i] (two candidates' samples taken in the
    same rounds, as peers_bench.py's time_all takes them) and a bootstrap interval of that median
    at `level` (percentiles of the medians of `resamples` resamples, seeded so a table reads the
    same each time): (median, lo, hi). Pairing by round cancels what moves both candidates alike
    (clocks, neighbours), so the interval measures how sure the comparison is, not the spread of
    either candidate."""
    if len(num) != len(den) or not num:
        raise ValueError(f"paired samples: {len(num)} against {len(den)}")
    ratios = [a / b for a, b in zip(num, den)]
    rng = random.Random(seed)
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(resamples))
    tail = (1 - level) / 2
    return statistics.median(ratios), meds[int(tail * resamples)], meds[int((1 - tail) * resamples) - 1]


def moved_bytes(op, shape):
    """Bytes an op must move for a shape "T x H" or "T x heads x D" (bf16; "T x heads x D / qkv" for
    q viewed in a fused qkv tensor reads and writes only q's rows), as peers_bench.py counts them:
    rmsnorm reads and writes each row, the fused add also reads and writes the residual, and both
    read the weight once."""
    dims = [int(d) for d in shape.split("/")[0].split("x")]
    hidden, rows = dims[-1], math.prod(dims[:-1])
    return rows * hidden * 2 * (4 if "fused" in op else 2) + 2 * hidden


def load(path):
    """{(op, shape): {candidate: (us, % of copy, (paired ratio, lo, hi) or None)}} in the CSV's
    order; the paired ratio is None where the CSV has none (other candidates than normjit, tables
    from before those columns)."""
    table = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            cols = [r.get(k) or "" for k in ("ratio_paired", "ratio_lo", "ratio_hi")]
            paired = tuple(map(float, cols)) if all(cols) else None
            table.setdefault((r["op"], r["shape"]), {})[r["candidate"]] = (float(r["us"]), float(r["pct_copy"]), paired)
    return table


def ratio(row):
    """normjit / fastest peer, and that peer's name; None where normjit or every peer is missing."""
    peers = {c: row[c][0] for c in PEERS if c in row}
    if "normjit" not in row or not peers:
        return None
    best = min(peers, key=peers.get)
    return row["normjit"][0] / peers[best], best


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def summarize(table):
    """The target figures of one table, as a dict (see the module docstring)."""
    ratios, by_op, small, large, behind, big = [], {}, [], [], [], []
    for (op, shape), row in table.items():
        rb = ratio(row)
        if rb is None:
            continue
        r, best = rb
        ratios.append(r)
        by_op.setdefault(op, []).append(r)
        (small if int(shape.split("x")[0]) <= 128 else large).append(r)
        if r > 1:
            behind.append((op, shape, best, r, row["normjit"][2]))
        if moved_bytes(op, shape) >= BIG_BYTES:
            same = 100 * row["ref-copy"][0] / row["normjit"][0] if "ref-copy" in row else None
            big.append((op, shape, row["normjit"][1], same))
    return {
        "shapes": len(ratios),
        "geomean": geomean(ratios),
        "by_op": {op: (len(rs), geomean(rs)) for op, rs in by_op.items()},
        "tokens_1_128": geomean(small),
        "tokens_512_up": geomean(large),
        "behind": behind,
        "behind_beyond_noise": sum(p is not None and p[1] > 1 for *_, p in behind),
        "behind_with_interval": sum(p is not None for *_, p in behind),
        "big": big,
        "big_at_target": sum(pct >= COPY_TARGET for _, _, pct, _ in big),
        "big_same_bytes": [same for *_, same in big if same is not None],
    }


def report(path, s):
    print(f"{path}: geomean normjit / fastest peer {s['geomean']:.3f} over {s['shapes']} shapes "
          f"(tokens 1-128 {s['tokens_1_128']:.3f}, 512 and more {s['tokens_512_up']:.3f})")
    for op, (n, g) in s["by_op"].items():
        print(f"  {op}: {g:.3f} over {n} shapes")
    far = [b for b in s["behind"] if b[3] > BEHIND_BY]
    noise = ""
    if s["behind_with_interval"]:
        noise = (f", {s['behind_beyond_noise']} of {s['behind_with_interval']} beyond noise (the "
                 f"{100 * INTERVAL:.0f} % interval of the per-round ratio above 1)")
    print(f"  behind: {len(s['behind'])} shapes, {len(far)} by more than {100 * (BEHIND_BY - 1):.0f} %{noise}")
    for op, shape, best, r, p in s["behind"]:
        print(f"    {op} {shape}: {r:.3f} of {best}" +
              (f" (per round {p[0]:.3f}, {100 * INTERVAL:.0f} % interval {p[1]:.3f}-{p[2]:.3f})" if p else ""))
    print(f"  >= {COPY_TARGET:.0f} % of copy where >= 64 MiB move: {s['big_at_target']} of {len(s['big'])}")
    for op, shape, pct, same in s["big"]:
        if pct < COPY_TARGET:
            print(f"    {op} {shape}: {pct:.1f} %" + (f" (of a same-bytes copy: {same:.1f} %)" if same else ""))
    if s["big_same_bytes"]:
        at = sum(v >= COPY_TARGET for v in s["big_same_bytes"])
        print(f"  >= {COPY_TARGET:.0f} % of a same-bytes copy (ref-copy) where >= 64 MiB move: "
              f"{at} of {len(s['big_same_bytes'])}")


def compare(a, b):
    print("| op | shape | normjit µs A | normjit µs B | ratio A | ratio B |")
    print("|---|---|---:|---:|---:|---:|")
    for key, row in a.items():
        if key not in b:
            continue
        ra, rb = ratio(row), ratio(b[key])
        if ra is None or rb is None:
            continue
        print(f"| {key[0]} | {key[1]} | {row['normjit'][0]:.2f} | {b[key]['normjit'][0]:.2f} | {ra[0]:.3f} | {rb[0]:.3f} |")


def markdown_table(tables):
    """One Markdown table of every shape of `tables` (load's dicts), in their order: a line a shape,
    '–' where a column has no value (no peer timed, no same-bytes copy beside it)."""
    lines = ["| op | shape | normjit µs | fastest peer µs | normjit / fastest | same-bytes copy µs | normjit % of copy |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for t in tables:
        for (op, shape), row in t.items():
            if "normjit" not in row:
                continue
            us, pct, paired = row["normjit"]
            rb = ratio(row)
            peer, r = ("–", "–")
            if rb is not None:
                peer = f"{row[rb[1]][0]:.2f} {rb[1]}"
                r = f"{rb[0]:.3f}"
                if rb[0] > 1 and paired is not None:
                    r += f" ({paired[1]:.3f}–{paired[2]:.3f}{', beyond noise' if paired[1] > 1 else ''})"
            copy = f"{row['ref-copy'][0]:.2f}" if "ref-copy" in row else "–"
            lines.append(f"| {op} | {shape.replace('x', ' × ')} | {us:.2f} | {peer} | {r} | {copy} | {pct:.1f} % |")
    return lines


def main(argv):
    if argv[:1] == ["--table"]:
        if len(argv) < 2:
            print(__doc__.strip(), file=sys.stderr)
            return 2
        print("\n".join(markdown_table([load(p) for p in argv[1:]])))
        return 0
    if not 1 <= len(argv) <= 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    tables = [load(p) for p in argv]
    for path, table in zip(argv, tables):
        report(path, summarize(table))
    if len(tables) == 2:
        print()
        compare(*tables)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
