#!/usr/bin/env bash
# Device call 10 (session 19): call 9 again with bench --latency measuring each column on its own
# (the forced weight_first needs the static-weight promise, so only that column runs): the
# weight loaded before the PDL wait at every decode size, memset and kernel fills, beside the
# defaults. Carry: .devdeps
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
num=r"(?:([\d.]+) us|\s*n/a\s*)"
def load(f):
    d={}
    for l in open(os.path.join(R,f)):
        m=re.match(r"\s+(\w+)\s+(\d+) x (\d+)\s+"+num+r"\s+static weight\s+"+num,l)
        if m: d[(m[1],int(m[2]),int(m[3]))]=(float(m[4] or 0),float(m[5] or 0))
    return d
fs=["default","default2","wfirst","default-kfill","wfirst-kfill"]
ds={f:load("latency-%s.txt"%f) for f in fs}
print("op rows hidden | memset: default default2 static | static+wfirst | kfill: default static | static+wfirst")
for k in ds["default"]:
    g=lambda f,i=0: ds[f].get(k,(0,0))[i]
    print(k[0],k[1],k[2],"| %.3f %.3f %.3f | %.3f | %.3f %.3f | %.3f"%(g("default"),g("default2"),g("default",1),g("wfirst",1),g("default-kfill"),g("default-kfill",1),g("wfirst-kfill",1)))
PY
