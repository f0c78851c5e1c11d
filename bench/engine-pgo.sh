#!/usr/bin/env bash
# The engine with and without profile-guided optimization (PGO), side by side: builds the `playouts`
# example twice (once instrumented, to collect a profile of random games of 2, 3 and 4 players, then
# once with that profile), builds it plainly, and times both builds interleaved, pinned to one core.
# Prints the best user CPU time of each and the games per CPU second it gives.
#
#   bench/engine-pgo.sh [GAMES, default 60000] [RUNS, default 5]
#
# Needs `llvm-profdata` of an LLVM that reads the compiler's raw profiles: rustup's `llvm-tools` when it
# can be installed; otherwise Debian's `llvm-19`, which reads rustc 1.95's (LLVM 22) profiles and which
# this script installs with apt-get when no `llvm-profdata` is found. The builds go to their own target
# directory (PGO_TARGET_DIR, default target/pgo), so the workspace's own builds are not touched.
# What it gave, and why the build does not use it: docs/performance.md, "The engine" (measured and not kept).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-60000}
runs=${2:-5}
target=${PGO_TARGET_DIR:-$PWD/target/pgo}
profiles=$target/profiles

profdata=""
for candidate in llvm-profdata-19 llvm-profdata \
    "$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin/llvm-profdata"; do
    if command -v "$candidate" >/dev/null 2>&1; then profdata=$candidate; break; fi
done
if [ -z "$profdata" ]; then
    apt-get install -y llvm-19 >/dev/null
    profdata=llvm-profdata-19
fi

build() { # build DIR RUSTFLAGS
    CARGO_TARGET_DIR=$1 RUSTFLAGS=$2 cargo build --quiet --release -p romirami-engine --example playouts
}

echo "== plain build"
build "$target/plain" ""
echo "== instrumented build, then its profile"
rm -rf "$profiles"
build "$target/instrumented" "-Cprofile-generate=$profiles"
for players in 2 3 4; do "$target/instrumented/release/examples/playouts" 20000 "$players" >/dev/null; done
"$profdata" merge -o "$target/merged.profdata" "$profiles"
echo "== build with the profile"
build "$target/optimized" "-Cprofile-use=$target/merged.profdata"

declare -A best=([plain]=999999 [optimized]=999999)
for _ in $(seq "$runs"); do
    for kind in plain optimized; do
        seconds=$( { /usr/bin/time -f %U taskset -c 1 "$target/$kind/release/examples/playouts" "$games" 4 >/dev/null; } 2>&1)
        if awk -v s="$seconds" -v b="${best[$kind]}" 'BEGIN { exit !(s < b) }'; then best[$kind]=$seconds; fi
    done
done
for kind in plain optimized; do
    awk -v k="$kind" -v s="${best[$kind]}" -v g="$games" \
        'BEGIN { printf "%-9s %d 4-player games in %.2f s of CPU time (best of runs): %.0f games/s\n", k, g, s, g / s }'
done
