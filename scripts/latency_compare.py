#!/usr/bin/env python3
"""The decode sizes of several `normjit bench --latency` outputs side by side (no GPU needed):

  python3 scripts/latency_compare.py [--static] A.txt B.txt ...

One line per op and size: each file's µs per launch in a CUDA graph with PDL (with --static, the
static-weight column instead; "n/a" where a forced config did not fit), then the same-bytes copy
of the first file. Used to compare runs of one call (default against a forced --config, or
--fill memset against --fill kernel)."""
import re
import sys

NUM = r"(?:([\d.]+) us|\s*n/a\s*)"
LINE = re.compile(r"\s+(\w+)\s+(\d+) x (\d+)\s+" + NUM + r"\s+static weight\s+" + NUM +
                  r"\s+same-bytes copy\s+([\d.]+)")


def load(path):
    """{(op, rows, hidden): (us, us_static, us_copy)}, None for n/a."""
    out = {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                num = lambda g: float(g) if g else None
                out[(m[1], int(m[2]), int(m[3]))] = (num(m[4]), num(m[5]), float(m[6]))
    return out


def main(argv):
    column = 0
    if argv and argv[0] == "--static":
        column, argv = 1, argv[1:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    runs = [load(p) for p in argv]
    cell = lambda v: f"{v:7.3f}" if v is not None else "    n/a"
    print("op                  rows hidden " + " ".join(f"{i + 1:>7}" for i in range(len(runs))) + "    copy")
    for key in runs[0]:
        values = [r.get(key, (None, None, None))[column] for r in runs]
        print(f"{key[0]:<18} {key[1]:>5} {key[2]:>6} " + " ".join(cell(v) for v in values) +
              f" {runs[0][key][2]:7.3f}")
    for i, p in enumerate(argv):
        print(f"{i + 1}: {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
