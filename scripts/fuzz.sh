#!/usr/bin/env bash
# Runs each fuzz target of fuzz/ (cargo-fuzz, libFuzzer) for a bounded time.
#
# cargo-fuzz needs nightly compiler flags (coverage instrumentation); on a stable toolchain
# RUSTC_BOOTSTRAP=1 allows them. Installs cargo-fuzz when it is missing. The record_import target starts from real
# records written by `romirami simulate`, rummy_record_import from those of `romirami simulate --game`.
# Prints the executions of each target; exits non-zero when a target crashed (libFuzzer leaves the input
# under fuzz/artifacts/<target>/).
#
# Usage: scripts/fuzz.sh [seconds per target, default 20] [target ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(protocol_decode engine_apply record_import rummy_record_import rumino_apply rommi_apply rami_apply)
export RUSTC_BOOTSTRAP=1
# The fuzzed crates forbid unsafe code (`#![forbid(unsafe_code)]`), so AddressSanitizer has nothing of
# ours to watch: without it (FUZZ_SANITIZER=none, the default) the build is lighter and a run executes
# more inputs; libFuzzer still finds every panic, overflow and endless loop. FUZZ_SANITIZER=address
# brings it back.
sanitizer="${FUZZ_SANITIZER:-none}"
# The fuzz build is instrumented (sanitizer and coverage): it is kept apart from the workspace's own
# target directory, in a cache that outlives checkouts, so that CI on the same machine builds it once.
WORKSPACE_TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
export CARGO_TARGET_DIR="${FUZZ_TARGET_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/romirami/fuzz-target}"

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked

# `romirami`, to write the seed records: the binary ROMIRAMI_BIN names (scripts/test.sh's), else run
# from the workspace's build.
romirami() {
    if [ -n "${ROMIRAMI_BIN:-}" ]; then
        "$ROMIRAMI_BIN" "$@"
    else
        CARGO_TARGET_DIR="$WORKSPACE_TARGET" cargo run --quiet --bin romirami -- "$@"
    fi
}

# Seeds for the record importer: a few real records.
seeds=fuzz/corpus/record_import
if [ ! -d "$seeds" ] || [ -z "$(ls -A "$seeds" 2>/dev/null)" ]; then
    mkdir -p "$seeds"
    romirami simulate --games 8 --seed 1 --out "$seeds" >/dev/null
fi
# Seeds for the rummy record importer: 3 bot matches of each rummy game.
rummy_seeds=fuzz/corpus/rummy_record_import
if [ ! -d "$rummy_seeds" ] || [ -z "$(ls -A "$rummy_seeds" 2>/dev/null)" ]; then
    mkdir -p "$rummy_seeds"
    for game in rommi rami rumino; do
        romirami simulate --game "$game" --games 3 --seed 1 --out "$rummy_seeds/$game" >/dev/null
        for f in "$rummy_seeds/$game"/*.json; do mv "$f" "$rummy_seeds/$game-$(basename "$f")"; done
        rmdir "$rummy_seeds/$game"
    done
fi

(cd fuzz && cargo fuzz build --release --sanitizer "$sanitizer")
# Each target runs in its own libFuzzer process, as many at once as the machine has cores (FUZZ_JOBS):
# a fuzzer keeps one core busy, and the targets are independent. Each prints its line when it ends.
run_target() {
    local target=$1 log
    log="$(mktemp)"
    if (cd fuzz && cargo fuzz run --release --sanitizer "$sanitizer" "$target" -- -max_total_time="$seconds" -print_final_stats=1) >"$log" 2>&1; then
        result=ok
    else
        result=CRASH
        tail -n 40 "$log"
    fi
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    speed="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
    cov="$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)"
    echo "$target ($seconds s): $result, ${runs:-?} executions (${speed:-?}/s), ${cov:-cov: ?}"
    rm -f "$log"
    [ "$result" = ok ]
}
jobs_at_once="${FUZZ_JOBS:-$(nproc)}"
status=0
running=0
for target in "${targets[@]}"; do
    if [ "$running" -ge "$jobs_at_once" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
    run_target "$target" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
exit "$status"
