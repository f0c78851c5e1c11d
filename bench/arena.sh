#!/usr/bin/env bash
# What a large tournament costs a node: a 1,000-player arena of bot players (tables of 4) on one server,
# against the same 1,000 bot players at ordinary tables. In both runs a probe load (`romirami load`, PROBE
# tables of 4, one action per table every 2 s) measures act -> ack while the bots play, and the server's
# own counters give actions/s; the arena run also gives the director's pairing time (the histogram
# `romirami_tournament_pairing_seconds`). Results go to bench/results/arena-*.{txt,json}.
#
#   bench/arena.sh              # 1,000 players, a 4-minute arena, a 30 s probe
#   PLAYERS=200 MINUTES=2 PROBE_SECONDS=10 bench/arena.sh
#
# Needs: PostgreSQL on 127.0.0.1:5432 (user postgres, trust), psql, curl, python3, Node.js 20 or later.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$TARGET/release/romirami
RESULTS=$ROOT/bench/results
DB_NAME=romirami_arena_bench
PG_ADMIN=${BENCH_PG_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres}
PG_URL=postgres://postgres@127.0.0.1:5432/$DB_NAME
PORT=${BENCH_PORT:-4380}
PLAYERS=${PLAYERS:-1000}
MINUTES=${MINUTES:-4}
PROBE=${PROBE:-25}
PROBE_SECONDS=${PROBE_SECONDS:-30}
# The probe starts once the bots play: after their joins (a few ms each) and the first games' start.
WARM_UP=${WARM_UP:-20}
mkdir -p "$RESULTS"
log() { printf '\n== %s\n' "$*" >&2; }

log "building"
cargo build --release -p romirami-tools >&2

SERVER=
BOTS=
cleanup() {
  [ -n "$BOTS" ] && kill "$BOTS" 2>/dev/null || true
  [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap cleanup EXIT

start_server() {
  psql -q "$PG_ADMIN" -c "drop database if exists $DB_NAME with (force)" -c "create database $DB_NAME" >/dev/null
  RUST_LOG=warn "$BIN" serve --listen "127.0.0.1:$PORT" --database-url "$PG_URL" \
    --guests-per-address-per-minute 1000000 >"$RESULTS/arena-server.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/metrics" >/dev/null && return 0; sleep 0.2; done
  echo "the server did not start" >&2
  exit 1
}

stop_server() {
  [ -n "$BOTS" ] && kill "$BOTS" 2>/dev/null || true
  kill "$SERVER" 2>/dev/null || true
  wait 2>/dev/null || true
  BOTS=; SERVER=
}

# metric NAME: the server's value of a counter (or a histogram's _sum/_count), 0 when absent.
metric() {
  curl -fs "http://127.0.0.1:$PORT/metrics" | awk -v name="$1" '$1 == name { print $2; found = 1 } END { if (!found) print 0 }'
}

# probe NAME: the probe load while the bots play, and the server's actions/s over it.
probe() {
  local name=$1 before after
  before=$(metric romirami_actions_total)
  "$BIN" load --server "ws://127.0.0.1:$PORT/ws" --tables "$PROBE" --players 4 --interval-ms 2000 \
    --duration "$PROBE_SECONDS" --json "$RESULTS/arena-$name.json" | tee "$RESULTS/arena-$name.txt"
  after=$(metric romirami_actions_total)
  python3 -c "print(f'server: {($after - $before) / $PROBE_SECONDS:.0f} actions/s over the probe (bots and probe)')" |
    tee -a "$RESULTS/arena-$name.txt"
}

log "1. a $PLAYERS-player arena of $MINUTES minutes (tables of 4)"
start_server
# A guest's token comes with its welcome on the WebSocket (Node's built-in client).
token=$(node --experimental-websocket --no-warnings -e '
  const socket = new WebSocket(process.argv[1]);
  socket.onopen = () => socket.send(JSON.stringify({ type: "hello", protocol: 1, name: "Arena Director" }));
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "welcome") { console.log(msg.token); process.exit(0); }
  };' "ws://127.0.0.1:$PORT/ws")
curl -fs -X POST "http://127.0.0.1:$PORT/api/players/claim" -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' -d '{"password": "the arena bench password"}' >/dev/null
id=$(curl -fs -X POST "http://127.0.0.1:$PORT/api/tournaments" -H "Authorization: Bearer $token" \
  -H 'Content-Type: application/json' \
  -d "{\"game\": \"romi-rami\", \"format\": \"arena\", \"seats\": 4, \"minutes\": $MINUTES,
       \"clock\": {\"turn_ms\": 20000, \"reserve_ms\": 0}, \"start\": \"when_full\",
       \"max_players\": $PLAYERS, \"rated\": false}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
"$BIN" bots --server "ws://127.0.0.1:$PORT/ws" --tournament "$id" --players "$PLAYERS" \
  >"$RESULTS/arena-bots.log" 2>&1 &
BOTS=$!
sleep "$WARM_UP"
probe with-arena
python3 - "$(metric romirami_tournament_pairing_seconds_sum)" "$(metric romirami_tournament_pairing_seconds_count)" \
  <<'EOF' | tee -a "$RESULTS/arena-with-arena.txt"
import sys
total, count = float(sys.argv[1]), float(sys.argv[2])
print(f"director: {count:.0f} steps that seated players, {1000 * total / max(count, 1):.2f} ms each on average")
EOF
curl -fs "http://127.0.0.1:$PORT/metrics" | grep '^romirami_tournament_pairing_seconds_bucket' >>"$RESULTS/arena-with-arena.txt"
stop_server

log "2. the same $PLAYERS bot players at ordinary tables of 4"
start_server
"$BIN" bots --server "ws://127.0.0.1:$PORT/ws" --games $((PLAYERS * 20)) --players 4 --concurrency $((PLAYERS / 4)) \
  >"$RESULTS/arena-plain-bots.log" 2>&1 &
BOTS=$!
sleep "$WARM_UP"
probe without-arena
stop_server
log "results in $RESULTS/arena-*.txt"
