#!/usr/bin/env bash
# Device call 6 (session 10): the GPU suite at the session's last code, then the ncu script on
# one wide and one narrow shape.
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
trap 'cd "$R/.." && tar czf s10call6.tgz r' EXIT
export OUT=$R
git log --oneline -1 2>/dev/null
timeout 450 bash scripts/gpu_suite.sh > "$R/gpu-suite.txt" 2>&1
echo "suite rc=$?"; tail -25 "$R/gpu-suite.txt"
timeout 60 bash scripts/ncu_profile.sh --op rmsnorm --tokens 1024 --hidden 65536
timeout 40 bash scripts/ncu_profile.sh --op fused_add_rmsnorm --tokens 1024 --hidden 262144
