#!/usr/bin/env bash
# What a finished game costs the server's memory: the growth of its resident set per game finished,
# with tables playing at full speed (every action committed to PostgreSQL before its ack). A first
# phase warms the server up (allocator pools, connections, buffers); the figure is the growth over the
# second phase divided by the games finished in it. Goal: at most 2 KB per finished game.
#
#   bench/finished-memory.sh [SECONDS]     # default 40 s of measuring after 15 s of warm-up
#
# Needs the release binary (cargo build --release -p romirami-tools), PostgreSQL on 127.0.0.1:5432
# (user postgres, trust; BENCH_PG_ADMIN to change it) and psql. Prints one line: RSS before, after,
# games, bytes per game; with RESULTS=DIR also writes DIR/finished-memory.json.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_MEASURED=${1:-40}
WARMUP=${WARMUP:-15}
TABLES=${TABLES:-50}
BIN=${CARGO_TARGET_DIR:-$PWD/target}/release/romirami
PG_ADMIN=${BENCH_PG_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres}
DB=romirami_finished_memory
DB_URL=${PG_ADMIN%/*}/$DB
PORT=${PORT:-9390}

psql -q "$PG_ADMIN" -c "drop database if exists $DB with (force)" -c "create database $DB" >/dev/null
RUST_LOG=warn "$BIN" serve --listen "127.0.0.1:$PORT" --database-url "$DB_URL" \
  --messages-per-second 1000 --message-burst 1000 >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/api/health" >/dev/null && break; sleep 0.1; done

rss() { awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$SERVER/status"; }
games() { psql -tA "$DB_URL" -c "select count(*) from games where finished_at is not null"; }
play() { "$BIN" load --server "ws://127.0.0.1:$PORT/ws" --tables "$TABLES" --players 4 --interval-ms 0 --duration "$1" >/dev/null; }

play "$WARMUP"
sleep 2   # the last results are stored, the last tables close
before=$(rss); games_before=$(games)
play "$SECONDS_MEASURED"
sleep 2
after=$(rss); games_after=$(games)
finished=$((games_after - games_before))
per_game=$(( finished > 0 ? (after - before) / finished : 0 ))
echo "finished games: RSS $before B -> $after B over $finished games: $per_game B per finished game"
if [ -n "${RESULTS:-}" ]; then
  printf '{"rss_before":%s,"rss_after":%s,"games":%s,"bytes_per_game":%s}\n' \
    "$before" "$after" "$finished" "$per_game" >"$RESULTS/finished-memory.json"
fi
