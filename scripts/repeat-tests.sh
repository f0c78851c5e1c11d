#!/usr/bin/env bash
# Runs a set of tests N times and tells how many runs failed and which tests failed how often: a suspicion
# of a flaky test checked in one command.
#
#   scripts/repeat-tests.sh N [cargo test arguments]
#   scripts/repeat-tests.sh 40 -p romirami-server --lib
#   scripts/repeat-tests.sh 20 -p romirami-server --test server -- rematch
#
# The tests are built once first; each run's output is kept in a temporary folder, named in the summary,
# so that a failure can be read afterwards. Exit status: 0 when every run passed, 1 otherwise.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ $# -lt 1 || ! "$1" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/repeat-tests.sh N [cargo test arguments]" >&2
    exit 2
fi
runs=$1
shift

# Cargo's own arguments end at `--`: those go to the build, all of them to the runs.
build_args=()
for arg in "$@"; do
    [[ "$arg" == "--" ]] && break
    build_args+=("$arg")
done
echo "building: cargo test ${build_args[*]-} --no-run" >&2
cargo test ${build_args[@]+"${build_args[@]}"} --no-run --quiet

outputs=$(mktemp -d -t repeat-tests.XXXXXX)
failed_runs=0
declare -A failures=()
for run in $(seq 1 "$runs"); do
    output="$outputs/run-$run.txt"
    start=$(date +%s%N)
    if cargo test "$@" >"$output" 2>&1; then
        status=passed
    else
        status=FAILED
        failed_runs=$((failed_runs + 1))
        named=0
        while read -r name; do
            failures[$name]=$(( ${failures[$name]:-0} + 1 ))
            named=1
        done < <(sed -n 's/^test \(.*\) \.\.\. FAILED$/\1/p' "$output" | sort -u)
        if [[ $named -eq 0 ]]; then
            # The run failed without a failing test's name: a build error, a crash, a timeout.
            failures["(no failing test named: see $output)"]=$(( ${failures["(no failing test named: see $output)"]:-0} + 1 ))
        fi
    fi
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf 'run %d/%d: %s (%d.%03d s)\n' "$run" "$runs" "$status" $((ms / 1000)) $((ms % 1000)) >&2
done

echo
echo "cargo test $*"
echo "$runs runs, $failed_runs failed (outputs in $outputs)"
for name in "${!failures[@]}"; do
    printf '  %3d  %s\n' "${failures[$name]}" "$name"
done | sort -rn
[[ $failed_runs -eq 0 ]]
