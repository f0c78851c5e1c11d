#!/usr/bin/env bash
# The engine at a base revision against the working tree, timed in alternating runs: for tuning on a
# shared machine, where the same binary's runs differ by up to a fifth within minutes but two builds
# run one after the other see the same host. Builds the `playouts` example of both (the base in a
# temporary git worktree, each in a target directory of its own), runs them in turn, pinned to one
# core, and prints the median of each one's elapsed seconds and their ratio. Comparing a build with
# itself (BASE = HEAD, clean tree) gave 1.000 with 10 pairs of 60,000 games, but 1.053 with 4 pairs of
# 30,000: use at least the defaults, and read a ratio within 1 to 2 % of 1 as no difference.
# When valgrind is installed, it also prints each build's instruction count for 300 games, which does
# not vary at all.
#
#   bench/engine-ab.sh BASE [PAIRS, default 10] [PLAYOUTS ARGUMENTS, default: 60000 4]
#
# For example `bench/engine-ab.sh HEAD 10 60000 4 without-take-backs` for a change not yet committed.
# How the engine's figures are measured: docs/performance.md, "The engine".
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: bench/engine-ab.sh BASE [PAIRS] [PLAYOUTS ARGUMENTS]}
pairs=${2:-10}
shift $(( $# < 2 ? $# : 2 ))
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(60000 4)
target=${AB_TARGET_DIR:-$PWD/target/ab}
mkdir -p "$target"

tree=$(mktemp -d)
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || true' EXIT
git worktree add --quiet --detach "$tree" "$base"

build() { # build SOURCE-DIR NAME: the playouts example of SOURCE-DIR, copied to $target/NAME
    (cd "$1" && CARGO_TARGET_DIR="$target/$2-build" cargo build --release --quiet -p romirami-engine --example playouts)
    cp "$target/$2-build/release/examples/playouts" "$target/$2"
}
echo "building $base and the working tree" >&2
build "$tree" base
build "$PWD" tree

elapsed() { taskset -c 1 "$1" "${args[@]}" | sed -E 's/.* in ([0-9.]+) s.*/\1/'; }
for _ in $(seq "$pairs"); do
    echo "$(elapsed "$target/base") $(elapsed "$target/tree")"
done | awk -v base="$base" '
    { a[NR] = $1; b[NR] = $2 }
    function median(v, n,    i, j, t) {
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    END {
        ma = median(a, NR); mb = median(b, NR)
        printf "%d alternating pairs: %s %.4f s, working tree %.4f s (medians); working tree / base %.3f\n", NR, base, ma, mb, mb / ma
    }'

if command -v valgrind >/dev/null 2>&1; then
    for name in base tree; do
        count=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$target/$name" 300 "${args[@]:1}" 2>&1 |
            sed -nE 's/.*I +refs: +([0-9,]+).*/\1/p')
        echo "instructions for 300 games, $name: $count"
    done
fi
