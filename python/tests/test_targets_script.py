"""scripts/peers/targets.py, the reader of the side-by-side table's CSV: needs neither torch nor the
library, so it runs everywhere."""

import math

import pytest

from _support import load_repo_script


@pytest.fixture(scope="module")
def targets():
    return load_repo_script("scripts/peers/targets.py", "normjit_targets")


def write_csv(path, rows, paired=None):
    """rows: (op, shape, candidate, us, pct); paired: {(op, shape): (ratio, lo, hi)} for normjit's
    rows, in the columns peers_bench.py writes since they exist (none: the older format)."""
    with open(path, "w") as f:
        f.write("op,shape,candidate,us,gbs,pct_copy" + (",ratio_paired,ratio_lo,ratio_hi" if paired is not None else "") + "\n")
        for op, shape, cand, us, pct in rows:
            extra = ""
            if paired is not None:
                p = paired.get((op, shape)) if cand == "normjit" else None
                extra = "," + (",".join(f"{v}" for v in p) if p else ",,")
            f.write(f"{op},{shape},{cand},{us},0,{pct}{extra}\n")


def test_moved_bytes_counts_rows_residual_and_weight(targets):
    assert targets.moved_bytes("rmsnorm", "8192x2048") == 2 * 8192 * 2048 * 2 + 2 * 2048
    assert targets.moved_bytes("fused_add_rmsnorm", "2048x4096") == 4 * 2048 * 4096 * 2 + 2 * 4096
    # q of a fused qkv tensor (48 heads a token): only q's rows move
    assert targets.moved_bytes("rmsnorm_3d", "8192x32x128/48") == targets.moved_bytes("rmsnorm_3d", "8192x32x128")
    # Per-head rows: tokens x heads rows of head_dim.
    assert targets.moved_bytes("rmsnorm_3d", "4608x48x128") == 2 * 4608 * 48 * 128 * 2 + 2 * 128


def test_summary_of_a_small_table(targets, tmp_path):
    path = tmp_path / "t.csv"
    write_csv(path, [
        # decode size, normjit ahead of Liger (0.9); the references are not peers
        ("rmsnorm", "1x4096", "normjit", 4.5, 0.1), ("rmsnorm", "1x4096", "liger", 5.0, 0.1),
        ("rmsnorm", "1x4096", "ref-copy", 1.0, 0.1),
        # 64 MiB + 4 KiB move, normjit behind max-autotune by 5 %, at 96 % of copy
        ("rmsnorm", "8192x2048", "normjit", 21.0, 96.0), ("rmsnorm", "8192x2048", "compile-maxat", 20.0, 99.0),
        ("rmsnorm", "8192x2048", "eager", 30.0, 60.0), ("rmsnorm", "8192x2048", "ref-copy", 20.5, 98.0),
        # fused add, >= 64 MiB, ahead (0.98), at 98 % of copy; a peer that failed its check is absent
        ("fused_add_rmsnorm", "32768x4096", "normjit", 49.0, 98.0),
        ("fused_add_rmsnorm", "32768x4096", "liger", 50.0, 97.0),
        # no peer timed: not counted
        ("fused_add_rmsnorm", "1x2048", "normjit", 4.0, 0.1),
    ])
    s = targets.summarize(targets.load(path))
    assert s["shapes"] == 3
    assert s["geomean"] == pytest.approx((0.9 * 1.05 * 0.98) ** (1 / 3))
    assert s["tokens_1_128"] == pytest.approx(0.9)
    assert s["tokens_512_up"] == pytest.approx(math.sqrt(1.05 * 0.98))
    assert s["by_op"]["rmsnorm"] == (2, pytest.approx(math.sqrt(0.9 * 1.05)))
    assert [(op, shape, best) for op, shape, best, *_ in s["behind"]] == [("rmsnorm", "8192x2048", "compile-maxat")]
    assert s["behind_with_interval"] == 0  # the older format has no paired ratios
    assert [(op, shape) for op, shape, *_ in s["big"]] == [("rmsnorm", "8192x2048"), ("fused_add_rmsnorm", "32768x4096")]
    assert s["big_at_target"] == 1
    # Of the same-bytes copy timed beside it (only where the table has one): 20.5 / 21.0.
    assert s["big_same_bytes"] == [pytest.approx(100 * 20.5 / 21.0)]


def test_main_prints_both_tables_and_the_comparison(targets, tmp_path, capsys):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    write_csv(a, [("rmsnorm", "1x4096", "normjit", 4.5, 0.1), ("rmsnorm", "1x4096", "liger", 5.0, 0.1)])
    write_csv(b, [("rmsnorm", "1x4096", "normjit", 5.5, 0.1), ("rmsnorm", "1x4096", "liger", 5.0, 0.1)])
    assert targets.main([str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "geomean normjit / fastest peer 0.900 over 1 shapes" in out
    assert "behind: 1 shapes, 1 by more than 2 %" in out
    assert "| rmsnorm | 1x4096 | 4.50 | 5.50 | 0.900 | 1.100 |" in out
    assert targets.main([]) == 2


def test_paired_ratio_interval(targets):
    # A constant ratio: the interval is that ratio.
    med, lo, hi = targets.paired_ratio_interval([2.0] * 40, [1.0] * 40)
    assert (med, lo, hi) == (2.0, 2.0, 2.0)
    # Rounds where both candidates moved alike pair out: per round 1.01 +- 0.002, while each
    # candidate alone spreads by 50 %.
    den = [1.0 + 0.5 * (i % 5) for i in range(100)]
    num = [d * (1.01 + 0.002 * ((i % 3) - 1)) for i, d in enumerate(den)]
    med, lo, hi = targets.paired_ratio_interval(num, den)
    assert med == pytest.approx(1.01)
    assert 1.0 < lo <= med <= hi < 1.02
    # Seeded: the same samples give the same interval.
    assert targets.paired_ratio_interval(num, den) == (med, lo, hi)
    with pytest.raises(ValueError):
        targets.paired_ratio_interval([1.0], [1.0, 2.0])


def test_behind_beyond_noise_uses_the_paired_interval(targets, tmp_path, capsys):
    path = tmp_path / "p.csv"
    rows = [
        ("rmsnorm", "8192x4096", "normjit", 32.1, 96.0), ("rmsnorm", "8192x4096", "compile", 32.0, 96.3),
        ("rmsnorm", "128x8192", "normjit", 5.5, 17.0), ("rmsnorm", "128x8192", "liger", 5.4, 17.3),
        ("rmsnorm", "1x4096", "normjit", 4.5, 0.1), ("rmsnorm", "1x4096", "liger", 5.0, 0.1),
    ]
    paired = {("rmsnorm", "8192x4096"): (1.002, 0.996, 1.007),  # behind, within noise
              ("rmsnorm", "128x8192"): (1.019, 1.010, 1.027),   # behind beyond noise
              ("rmsnorm", "1x4096"): (0.9, 0.89, 0.91)}
    write_csv(path, rows, paired)
    s = targets.summarize(targets.load(path))
    assert [b[1] for b in s["behind"]] == ["8192x4096", "128x8192"]
    assert s["behind_with_interval"] == 2 and s["behind_beyond_noise"] == 1
    assert targets.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "behind: 2 shapes, 0 by more than 2 %, 1 of 2 beyond noise" in out
    assert "rmsnorm 128x8192: 1.019 of liger (per round 1.019, 90 % interval 1.010-1.027)" in out


def test_table_mode_prints_one_markdown_line_a_shape(targets, tmp_path, capsys):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    write_csv(a, [("rmsnorm", "8192x2048", "normjit", 21.0, 96.0), ("rmsnorm", "8192x2048", "compile-maxat", 20.0, 99.0),
                  ("rmsnorm", "8192x2048", "ref-copy", 20.5, 98.0)],
              paired={("rmsnorm", "8192x2048"): (1.04, 1.03, 1.06)})
    # A strided per-head shape no peer could take: no fastest peer, no ratio.
    write_csv(b, [("rmsnorm_3d", "8192x32x128/48", "normjit", 33.5, 94.1)])
    assert targets.main(["--table", str(a), str(b)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("| op | shape | normjit µs | fastest peer µs |")
    assert lines[2] == ("| rmsnorm | 8192 × 2048 | 21.00 | 20.00 compile-maxat | 1.050 (1.030–1.060, beyond noise) "
                        "| 20.50 | 96.0 % |")
    assert lines[3] == "| rmsnorm_3d | 8192 × 32 × 128/48 | 33.50 | – | – | – | 94.1 % |"
    assert len(lines) == 4
    assert targets.main(["--table"]) == 2
