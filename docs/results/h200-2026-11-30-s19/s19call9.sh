#!/usr/bin/env bash
# Device call 9 (session 19): call 8 found the weight read after the PDL wait slowed most by the
# process state, and a weight loaded before the wait (LaunchOptions::static_weight's weight_first,
# which the heuristic takes at <= 32 rows) spared: bench --latency with weight_first forced at every
# size, memset and kernel fills, beside the defaults. Carry: .devdeps
set -uo pipefail
cd "$(dirname "$0")/.."
R=$OUT/r; mkdir -p "$R"
source scripts/gpu_build.sh
OUT=$R gpu_build "" normjit normjit_cli > "$R/build-out.txt" 2>&1 || { tail "$R/build-out.txt"; exit 1; }
run() { name=$1; shift; timeout 60 build-gpu/normjit bench --latency "$@" > "$R/latency-$name.txt" 2>&1; echo "== $name rc=$?"; }
run default
run wfirst --config weight_first=1
run default-kfill --fill kernel
run wfirst-kfill --fill kernel --config weight_first=1
run default2
python3 - "$R" <<'PY'
import re,sys,os
R=sys.argv[1]
def load(f):
    d={}
    for l in open(os.path.join(R,f)):
        m=re.match(r"\s+(\w+)\s+(\d+) x (\d+)\s+([\d.]+) us\s+static weight\s+([\d.]+) us\s+same-bytes copy\s+([\d.]+)",l)
        if m: d[(m[1],int(m[2]),int(m[3]))]=(float(m[4]),float(m[5]))
        m=re.match(r"\s+(\w+)\s+(\d+) x (\d+)\s+n/a",l)
        if m: d[(m[1],int(m[2]),int(m[3]))]=(0,0)
    return d
fs=["default","default2","wfirst","default-kfill","wfirst-kfill"]
ds={f:load("latency-%s.txt"%f) for f in fs}
print("op rows hidden | default default2 (static) wfirst | kfill: default (static) wfirst")
for k in ds["default"]:
    g=lambda f,i=0: ds[f].get(k,(0,0))[i]
    print(k[0],k[1],k[2],"| %.3f %.3f (%.3f) %.3f | %.3f (%.3f) %.3f"%(g("default"),g("default2"),g("default",1),g("wfirst"),g("default-kfill"),g("default-kfill",1),g("wfirst-kfill")))
PY
