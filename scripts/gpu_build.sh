# Sourced by the scripts that run on the GPU machine (gpu_suite.sh, peers_bench.sh): the repo
# root, the output folder ($OUT there, else gpu-out/) and one configure + build into build-gpu/.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-$root/gpu-out}
mkdir -p "$out"
build=$root/build-gpu

# gpu_build LOG_PREFIX TARGET...: configure (fmt, json, Catch2, CLI11, xxHash from .devdeps/ when
# present: ../shared/device/fetch-deps.sh) and build the targets; logs go to
# $out/<LOG_PREFIX>configure.log and build.log, whose tails are printed on failure (returns 1).
gpu_build() {
  local logs=$1 prefix=()
  shift
  [ -d "$root/.devdeps/usr" ] && prefix=(-DCMAKE_PREFIX_PATH="$root/.devdeps/usr")
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${prefix[@]}" >"$out/${logs}configure.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" --target "$@" >"$out/${logs}build.log" 2>&1 ||
    { tail -n 30 "$out/${logs}configure.log" "$out/${logs}build.log"; return 1; }
}
