"""scripts/peers_tables.sh, issue 4's tables in one command: its dry run (PEERS_DRY_RUN=1) prints
what it would run, so the table list, the arguments and the deadline logic are checked here
without a GPU."""

import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "peers_tables.sh"


def dry(tmp_path, *tables, **env):
    e = {k: v for k, v in os.environ.items() if k not in ("PEERS_DEADLINE", "REBUILD")}
    e.update(OUT=str(tmp_path), PEERS_DRY_RUN="1", **env)
    return subprocess.run(["bash", str(SCRIPT), *tables], env=e, capture_output=True, text=True)


def test_every_table_in_order_built_once(tmp_path):
    r = dry(tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [l.split("--csv ")[1].split()[0] for l in lines] == [
        f"{tmp_path}/{t}.csv" for t in ("grid", "gemma", "wide", "3d", "3d-strided")]
    assert lines[0].startswith("REBUILD=1 ")
    assert all(l.startswith("REBUILD=0 ") for l in lines[1:])
    grid, gemma, wide, d3, strided = lines
    assert "--ops rmsnorm,fused_add_rmsnorm --autotune-min-tokens 8192 --reps 40" in grid
    assert "--tokens 1024 --hidden 32768,65536,131072,262144 --reps 20" in wide
    assert "--heads 4608x48x128,8192x32x128," in d3
    assert "4096x16x256/24" in strided
    assert "--ops gemma_rmsnorm,gemma_fused_add_rmsnorm" in gemma
    # The first table's time limit includes the build.
    assert grid.split()[2] == "500" and gemma.split()[2] == "120"


def test_named_tables_and_the_deadline(tmp_path):
    r = dry(tmp_path, "wide", "3d", PEERS_DEADLINE="200")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    # 200 s from the start caps the first table (150 + 120 for the build); the second keeps its own.
    assert lines[0].split()[2] == "200" and lines[1].split()[2] == "100"
    r = dry(tmp_path, "grid", PEERS_DEADLINE="10")
    assert r.returncode == 1
    assert "grid: skipped" in r.stdout


def test_an_unknown_table_is_refused(tmp_path):
    r = dry(tmp_path, "grid", "bogus")
    assert r.returncode == 2
    assert "unknown table 'bogus'" in r.stderr
    assert r.stdout == ""
