#!/usr/bin/env python3
"""Global loads that a kernel issues only after it has waited for an earlier load's data, before
its first shuffle or barrier (the row reduction). In-order issue means such a load leaves for
memory a round trip late; session 15 found ptxas scheduling the weight loads of held rows this way
(KernelConfig::pin_weight). Reads the SASS that scripts/sass.sh prints; no GPU needed.

  scripts/sass.sh CACHE_DIR [NAME_GLOB] | scripts/late_loads.py

Prints one line per kernel with late loads: its name, how many, and the first of them. Re-read
rows (`-reload`) and per-item residual stores (`-stitem`) issue loads after a use by design.
"""
import re
import sys

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
        if op.startswith("LDG"):
            if waited:
                late.append(line.strip())
            if any(r in loaded for r in regs[1:]):  # an address computed from loaded data
                waited = True
            width = 4 if ".128" in op else 2 if ".64" in op else 1
            loaded.update(range(regs[0], regs[0] + width))
        elif any(r in loaded for r in (regs if op.startswith("ST") else regs[1:])):
            waited = True
    return late


def main():
    text = sys.stdin.read()
    found = 0
    for block in text.split("== ")[1:]:
        lines = block.splitlines()
        late = late_loads(lines[1:])
        if late:
            found += 1
            print(f"{lines[0].split('-sm_')[0]}: {len(late)} late | {late[0]}")
    return 0 if found == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
