#!/usr/bin/env bash
# Runs each fuzz target of fuzz/ (cargo-fuzz, libFuzzer) for a bounded time.
#
# cargo-fuzz needs nightly compiler flags (-Zsanitizer=address); on a stable toolchain RUSTC_BOOTSTRAP=1
# allows them. Installs cargo-fuzz when it is missing. The record_import target starts from real
# records written by `romirami simulate`. Prints the executions of each target; exits non-zero on the
# first crash (libFuzzer leaves the input under fuzz/artifacts/<target>/).
#
# Usage: scripts/fuzz.sh [seconds per target, default 20] [target ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(protocol_decode engine_apply record_import)
export RUSTC_BOOTSTRAP=1
# The bundled SQLite (linked in through the server crate) defines two static arrays of the same name,
# which AddressSanitizer reports as an ODR violation before any input runs: not ours, not a bug.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_odr_violation=0}"
# The fuzz build is instrumented: keep it apart from the workspace's own target directory.
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-${CARGO_TARGET_DIR:-target}-fuzz}"

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

# Seeds for the record importer: a few real records.
seeds=fuzz/corpus/record_import
if [ ! -d "$seeds" ] || [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then
    mkdir -p "$seeds"
    CARGO_TARGET_DIR="${CARGO_TARGET_DIR%-fuzz}" cargo run --quiet --release --bin romirami -- \
        simulate --games 8 --seed 1 --out "$seeds" >/dev/null
fi

(cd fuzz && cargo fuzz build --release)
status=0
for target in "${targets[@]}"; do
    log="$(mktemp)"
    echo "== $target: $seconds s"
    if (cd fuzz && cargo fuzz run --release "$target" -- -max_total_time="$seconds" -print_final_stats=1) >"$log" 2>&1; then
        result=ok
    else
        result=CRASH
        status=1
        tail -n 40 "$log"
    fi
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
    cov="$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)"
    echo "$target: $result, ${runs:-?} executions (${speed:-?}/s), ${cov:-cov: ?}"
    rm -f "$log"
done
exit "$status"
