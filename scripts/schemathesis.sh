#!/usr/bin/env bash
# Property-based tests of the REST API against its own OpenAPI document, with Schemathesis.
#
# Builds `romirami`, serves it on a free port with a fresh SQLite database, plays a few bot games so
# that there are finished games and players to ask about, then runs Schemathesis against
# /api/openapi.json: no 5xx answers, and every answer's status, content type and body must be what the
# document says. Exits non-zero when Schemathesis finds a problem.
#
# Usage: scripts/schemathesis.sh [max examples per operation, default 50]
# Environment: CARGO_TARGET_DIR (where cargo builds), ROMIRAMI_BIN (a romirami already built), SCHEMATHESIS_VENV (default ~/.cache/romirami/schemathesis-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-50}"
target="${CARGO_TARGET_DIR:-target}"
venv="${SCHEMATHESIS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/romirami/schemathesis-venv}"

if [ ! -x "$venv/bin/schemathesis" ]; then
    echo "installing schemathesis into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --upgrade pip
    "$venv/bin/pip" install --quiet 'schemathesis>=4,<5'
fi
"$venv/bin/schemathesis" --version

# The binary ROMIRAMI_BIN names (scripts/test.sh's, built by its `cargo test`), else built here.
if [ -n "${ROMIRAMI_BIN:-}" ]; then
    romirami="$ROMIRAMI_BIN"
else
    cargo build --quiet --bin romirami
    romirami="$target/debug/romirami"
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$romirami" serve --listen 127.0.0.1:0 --database-url "sqlite://$work/api.db" >"$work/serve.log" 2>&1 &
server_pid=$!
address=""
for _ in $(seq 1 100); do
    address="$(sed -n 's|.*listening on http://\([^/]*\)/.*|\1|p' "$work/serve.log" | head -n 1)"
    [ -n "$address" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.log"; echo "the server did not start" >&2; exit 1; }
    sleep 0.1
done
[ -n "$address" ] || { cat "$work/serve.log"; echo "the server did not say where it listens" >&2; exit 1; }
echo "server at http://$address/"

"$romirami" bots --server "http://$address" --games 3

# Deterministic, bounded: every operation, positive and negative inputs, at most $examples cases each.
"$venv/bin/schemathesis" run "http://$address/api/openapi.json" \
    --url "http://$address" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$examples" \
    --phases examples,coverage,fuzzing \
    --generation-deterministic \
    --seed 1 \
    --workers 1
