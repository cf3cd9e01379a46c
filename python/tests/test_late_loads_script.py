"""scripts/late_loads.py, the reader of `scripts/sass.sh` output that lists loads issued a round
trip late: needs neither torch, the library nor a GPU, so it runs everywhere."""

import io
import sys
from contextlib import redirect_stdout

import pytest

from _support import load_repo_script


@pytest.fixture(scope="module")
def late():
    return load_repo_script("scripts/late_loads.py", "normjit_late_loads")


def sass(name, body):
    """One kernel's block as scripts/sass.sh prints it (cuobjdump's instruction lines)."""
    lines = [f"== {name}-sm_90a-0123456789abcdef.cubin", "REG:32 STACK:0 SHARED:0"]
    lines += [f"        /*{16 * i:04x}*/                   {insn} ;" for i, insn in enumerate(body)]
    return "\n".join(lines) + "\n"


# x loaded, then used (FADD reads R4), then the weight and a second x load: both late.
LATE_BOTH = [
    "LDG.E.128 R4, desc[UR6][R2.64]",
    "FADD.FTZ R20, R4, R5",
    "LDG.E.128.CONSTANT R8, desc[UR6][R12.64]",
    "LDG.E.128 R16, desc[UR6][R2.64+0x800]",
    "SHFL.BFLY PT, R21, R20, 0x10, 0x1f",
    "LDG.E.128 R24, desc[UR6][R2.64+0x1000]",
]
# every load before the first use
EARLY = [
    "LDG.E.128 R4, desc[UR6][R2.64]",
    "LDG.E.128.CONSTANT R8, desc[UR6][R12.64]",
    "FADD.FTZ R20, R4, R5",
    "BAR.SYNC.DEFER_BLOCKING 0x0",
]


def run(late, text, argv=()):
    out, stdin = io.StringIO(), sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        with redirect_stdout(out):
            rc = late.main(list(argv))
    finally:
        sys.stdin = stdin
    return rc, out.getvalue().splitlines()


def test_loads_after_a_use_up_to_the_reduction(late):
    found = late.late_loads(sass("k", LATE_BOTH).splitlines()[2:])
    assert len(found) == 2  # the weight and the second x load; the one after the shuffle is not counted
    assert "CONSTANT" in found[0] and "0x800" in found[1]
    assert late.late_loads(sass("k", EARLY).splitlines()[2:]) == []


def test_pinned_kernels_report_weight_and_row_loads(late):
    rc, lines = run(late, sass("fused_add_rmsnorm-bf16-h2304-v8-t128-r1-pw", LATE_BOTH))
    assert rc == 1
    assert lines == [lines[0]] and lines[0].startswith("fused_add_rmsnorm-bf16-h2304-v8-t128-r1-pw: 2 late |")


def test_unpinned_and_first_item_kernels_report_row_loads_only(late):
    for name in ("rmsnorm-bf16-h2304-v8-t128-r1", "fused_add_rmsnorm-bf16-h1536-v8-t128-r1-pwf"):
        rc, lines = run(late, sass(name, LATE_BOTH))
        assert rc == 1 and len(lines) == 1
        assert lines[0].startswith(f"{name}: 1 late |") and "0x800" in lines[0]


def test_by_design_kernels_are_left_out_unless_all(late):
    text = "".join(sass(n, LATE_BOTH) for n in ("rmsnorm-bf16-h8192-v8-t512-r1-reload-ldhinted",
                                                  "fused_add_rmsnorm-bf16-h4096-v8-t256-r1-stitem-keep"))
    assert run(late, text) == (0, [])
    rc, lines = run(late, text, ["--all"])
    assert rc == 1 and len(lines) == 2 and all(": 2 late |" in l for l in lines)


def test_late_weight_kernels_report_row_loads_only(late):
    # -lw loads the weight late by design, not the row (bf16's part-filled items did: kPinLastRow)
    for name in ("fused_add_rmsnorm-f32-h12800-v4-t1024-r1-lw", "rmsnorm-bf16-h45056-v8-t512-r1-lw-b2-pw-rc"):
        rc, lines = run(late, sass(name, LATE_BOTH))
        assert rc == 1 and len(lines) == 1
        assert lines[0].startswith(f"{name}: 1 late |") and "0x800" in lines[0]
    rc, lines = run(late, sass("fused_add_rmsnorm-f32-h12800-v4-t1024-r1-lw", LATE_BOTH), ["--all"])
    assert rc == 1 and lines[0].startswith("fused_add_rmsnorm-f32-h12800-v4-t1024-r1-lw: 2 late |")


def test_copies_into_shared_memory_are_not_register_loads(late):
    body = ["LDGSTS.E.BYPASS.128 [R31], desc[UR4][R6.64]", "LDGDEPBAR", "LDG.E.128 R4, desc[UR6][R2.64]",
            "FADD.FTZ R20, R4, R5", "BAR.SYNC.DEFER_BLOCKING 0x0"]
    assert run(late, sass("rmsnorm-f32-h139264-v4-t128-r1-c16", body)) == (0, [])


def test_early_kernels_are_not_listed(late):
    assert run(late, sass("rmsnorm-bf16-h4096-v8-t128-r1-pw", EARLY)) == (0, [])
