#!/usr/bin/env python3
"""Global loads that a kernel issues only after it has waited for an earlier load's data, before
its first shuffle or barrier (the row reduction). In-order issue means such a load leaves for
memory a round trip late; session 15 found ptxas scheduling the weight loads of held rows this way
(KernelConfig::pin_weight). Reads the SASS that scripts/sass.sh prints; no GPU needed.

  scripts/sass.sh CACHE_DIR [NAME_GLOB] | scripts/late_loads.py

Prints one line per kernel with late loads: its name, how many, and the first of them. Kernels
that load late by design are left out unless --all is given: re-read rows (`-reload`) and
per-item residual stores (`-stitem`) entirely; the weight loads (the read-only `.CONSTANT` ones)
of kernels whose weight is not pinned (no `-pw`), of those pinned on the full items only (`-pwf`,
whose part-filled item's weight is left free) and of those that load it late (`-lw`). What is
left, row loads anywhere and weight loads of kernels pinned on every item, is what the pins
(KernelConfig::pin_weight, rms_norm.cuh's kPinLastRow) were meant to prevent.
"""
import argparse
import re
import sys

# Kernels that issue loads after a use by design (slug parts, kernel_config.cpp: slug).
BY_DESIGN = ("-reload", "-stitem")

INSN = re.compile(r"\*/\s+(?:@!?U?P\w+\s+)?(\S+)\s*(.*)")


def late_loads(lines):
    """The LDG instructions issued after an instruction that reads an earlier LDG's destination,
    up to the first SHFL or BAR."""
    loaded, waited, late = set(), False, []
    for line in lines:
        m = INSN.search(line)
        if not m:
            continue
        op, args = m.groups()
        if op.startswith(("SHFL", "BAR")):
            break
        regs = [int(r) for r in re.findall(r"\bR(\d+)\b", args)]
        if op.startswith("LDG.") and regs:  # not LDGSTS / LDGDEPBAR (cp.async into shared memory)
            if waited:
                late.append(line.strip())
            if any(r in loaded for r in regs[1:]):  # an address computed from loaded data
                waited = True
            width = 4 if ".128" in op else 2 if ".64" in op else 1
            loaded.update(range(regs[0], regs[0] + width))
        elif any(r in loaded for r in (regs if op.startswith("ST") else regs[1:])):
            waited = True
    return late


def unexpected(name, late):
    """The late loads of kernel `name` that its config does not explain (see the module doc)."""
    if any(part in name for part in BY_DESIGN):
        return []
    # A weight loaded late (-lw) is late by design; the row loads of those kernels are not.
    weight_pinned = re.search(r"-pw(?!f)", name) is not None and "-lw" not in name
    return [l for l in late if weight_pinned or ".CONSTANT" not in l]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all", action="store_true", help="also the kernels and loads that are late by design")
    args = ap.parse_args(argv)
    text = sys.stdin.read()
    found = 0
    for block in text.split("== ")[1:]:
        lines = block.splitlines()
        name = lines[0].split("-sm_")[0]
        late = late_loads(lines[1:])
        if not args.all:
            late = unexpected(name, late)
        if late:
            found += 1
            print(f"{name}: {len(late)} late | {late[0]}")
    return 0 if found == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
