#!/usr/bin/env python3
"""A/B of kernel-template variants on one GPU, one process each, same shapes and method.

Each variant is a directory of .cuh files (NORMJIT_TEMPLATE_DIR); `base` is the embedded set.
Every variant runs `normjit bench` with the same arguments (validated against the float64
reference first, L2 cleared, inputs from HBM, median of events) on a fresh cache; the table
gives each shape's median and the ratio to the first variant.

  scripts/template_ab.py --normjit build-gpu/normjit base path/to/variantA name=path/to/variantB \
      -- --op rmsnorm,fused_add_rmsnorm --tokens 1,128,2048,32768 --hidden 4096,8192 --reps 50

A variant from a branch: git archive BRANCH kernel_templates | tar x -C DIR (then DIR/kernel_templates).
"""
import argparse
import os
import subprocess
import sys
import tempfile


def run(normjit, tdir, bench_args):
    env = dict(os.environ)
    env.pop("NORMJIT_TEMPLATE_DIR", None)
    if tdir:
        env["NORMJIT_TEMPLATE_DIR"] = tdir
    with tempfile.TemporaryDirectory() as cache:
        out = subprocess.run([normjit, "bench", "--cache-dir", cache] + bench_args, env=env,
                             capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{tdir or 'base'}: normjit bench failed:\n{out.stdout}{out.stderr}")
    rows = {}
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) == 10 and f[2].isdigit():  # op dtype tokens hidden config median p10 p90 GB/s %copy
            rows[(f[0], f[1], f[2], f[3])] = (f[4], float(f[5]), f[9])
    return rows


def main():
    argv = sys.argv[1:]
    bench_args = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    ap = argparse.ArgumentParser()
    ap.add_argument("--normjit", default="build/normjit")
    ap.add_argument("variants", nargs="+", help="'base' or [name=]template_dir")
    a = ap.parse_args(argv)
    names, results = [], []
    for v in a.variants:
        name, _, path = v.rpartition("=") if "=" in v else (v, "", v)
        name = name or path
        names.append(name)
        results.append(run(a.normjit, None if path == "base" else path, bench_args))
    print("| op | dtype | tokens | hidden | " + " | ".join(f"{n} µs" for n in names) + " | " +
          " | ".join(f"{n} / {names[0]}" for n in names[1:]) + " |")
    print("|---|---|---:|---:|" + "---:|" * (2 * len(names) - 1))
    for key in results[0]:
        base = results[0][key][1]
        cells = [f"{r[key][1]:.2f}" if key in r else "–" for r in results]
        # (A zero base: a dry run against the stand-in driver, whose events read 0.)
        ratios = [f"{r[key][1] / base:.3f}" if key in r and base > 0 else "–" for r in results[1:]]
        print(f"| {' | '.join(key)} | {' | '.join(cells)} | {' | '.join(ratios)} |")


if __name__ == "__main__":
    main()
