#!/usr/bin/env bash
# Builds normjit with sanitizers into its own build directory and runs the CPU suites there (the
# fake-driver tests of the call path included; the GPU tests are left out).
#   scripts/sanitize.sh address [ctest args...]   AddressSanitizer + UndefinedBehaviorSanitizer
#   scripts/sanitize.sh thread  [ctest args...]   ThreadSanitizer
# Build directory: $BUILD_DIR or build-<kind>. Any report fails the test that made it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:?usage: scripts/sanitize.sh address|thread [ctest args...]}
shift
case "$kind" in
  address)
    # Leaks are checked in one in-process run below: LeakSanitizer's exit-time tracer fails in
    # tests that fork many compiling processes ("LeakSanitizer has encountered a fatal error").
    export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ;;
  thread)
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$root/tests/sanitizers/tsan.supp" ;;
  *) echo "scripts/sanitize.sh: expected address or thread, got '$kind'" >&2; exit 2 ;;
esac
build=${BUILD_DIR:-$root/build-$kind}
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNORMJIT_SANITIZE="$kind" >/dev/null
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE gpu "$@"
if [ "$kind" = address ]; then
  # The call path in one process (compile, cache, load, launch against the fake driver), leaks too.
  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 "$build/tests/fake_driver/test_fake_driver"
fi
