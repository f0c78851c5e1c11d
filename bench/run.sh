#!/usr/bin/env bash
# The performance suite: the engine, the echo baseline, the server at full speed, 25,000 active tables,
# 200,000 idle connections, and the store against PostgreSQL. Every figure is taken in this one run, so
# the server's can be stated as a share of the baseline's. Writes the results to bench/results/ (JSON)
# and the server's latest figures into docs/performance.md (between its markers; bench/report.sh).
#
#   bench/run.sh              # the full suite (about 15 minutes)
#   QUICK=1 bench/run.sh      # the same steps with small numbers, to try the script (docs untouched)
#
# Needs: PostgreSQL on 127.0.0.1:5432 (user postgres, trust; BENCH_DATABASE_URL to change it), psql,
# jq, and about 6 GiB of free memory for the 200,000 connections (both ends on this machine).
#
# What the operating system needs (Linux): each process may hold only `ulimit -n` files (here a hard
# limit of 20,000 that an unprivileged process cannot raise), so the server runs as several processes
# on several ports and `romirami load` starts several worker processes, each connecting from its own
# loopback address 127.0.0.(2+i) so that no address runs out of its ~28,000 ephemeral ports
# (net.ipv4.ip_local_port_range). Both tools raise their soft limit to the hard one themselves.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
QUICK=${QUICK:-0}
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$TARGET/release/romirami
RESULTS=$ROOT/bench/results
DB_NAME=romirami_bench
PG_ADMIN=${BENCH_PG_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres}
PG_URL=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/$DB_NAME}
mkdir -p "$RESULTS"

if [ "$QUICK" = 1 ]; then
  ECHO_CONNS=50; MAX_TABLES=50; ACTIVE_TABLES=200; ACTIVE_SERVERS=1; RATE_TABLES=100; RATE_INTERVAL=200; IDLE_CONNS=4000; IDLE_SERVERS=2
  DURATION=3; ACTIVE_DURATION=5; PERSIST_GAMES=200; PERSIST_TABLES=100; SKIP_ENGINE=${SKIP_ENGINE:-1}; CRASH_KILLS=5
else
  ECHO_CONNS=200; MAX_TABLES=50; ACTIVE_TABLES=25000; ACTIVE_SERVERS=6; RATE_TABLES=2500; RATE_INTERVAL=200; IDLE_CONNS=200000; IDLE_SERVERS=11
  DURATION=15; ACTIVE_DURATION=20; PERSIST_GAMES=5000; PERSIST_TABLES=2000; SKIP_ENGINE=${SKIP_ENGINE:-0}; CRASH_KILLS=200
fi

# shellcheck source=bench/servers.sh
source "$ROOT/bench/servers.sh"

log "building"
cargo build --release -p romirami-tools >&2

trap stop_servers EXIT

run_load() { # NAME ARGS...: one `romirami load`, its report in $RESULTS/NAME.json, its output shown
  local name=$1; shift
  echo "romirami load $*" >"$RESULTS/$name.command"
  "$BIN" load "$@" --json "$RESULTS/$name.json" | tee "$RESULTS/$name.txt"
}

# 1. The engine.
if [ "$SKIP_ENGINE" != 1 ]; then
  log "engine: complete random games"
  # Cargo's own lines (they name this machine's paths) stay out of the kept results.
  cargo bench -p romirami-engine --bench games -- --warm-up-time 2 --measurement-time 5 2>&1 \
    | grep -v -E '^ *(Compiling|Running|Finished) ' | tee "$RESULTS/engine.txt"
fi

# 2. The baseline: a bare tokio-tungstenite echo server, round trips as fast as they come.
log "baseline: echo server, $ECHO_CONNS connections"
run_load echo --echo --connections "$ECHO_CONNS" --interval-ms 0 --payload-bytes 256 --duration "$DURATION"

# 3. The server at full speed: tables acting as fast as the server answers, every action committed
#    to PostgreSQL before its ack. Its frames/s against the baseline's.
log "server at full speed: $MAX_TABLES tables"
fresh_db
start_servers 1 9300
run_load play-max --server "$URLS" "${PID_ARGS[@]}" --tables "$MAX_TABLES" --players 4 --interval-ms 0 --duration "$DURATION" \
  --database-command postgres
curl -s http://127.0.0.1:9300/metrics >"$RESULTS/play-max.metrics"
stop_servers

# 3b. What a finished game costs the server's memory: RSS growth per game finished at full speed
#     (goal: at most 2 KB), after a warm-up.
log "finished games' memory"
if [ "$QUICK" = 1 ]; then FM_ARGS=(10); FM_WARMUP=5; else FM_ARGS=(40); FM_WARMUP=15; fi
RESULTS=$RESULTS WARMUP=$FM_WARMUP BENCH_PG_ADMIN=$PG_ADMIN bench/finished-memory.sh "${FM_ARGS[@]}" \
  | tee "$RESULTS/finished-memory.txt"

# 4. Active tables at the pace of the goal, one action per table every 2 s; then fewer tables at a
#    faster pace, for the goal's action rate.
log "active tables: $ACTIVE_TABLES tables of 4 on $ACTIVE_SERVERS server processes"
fresh_db
start_servers "$ACTIVE_SERVERS" 9400
run_load active --server "$URLS" "${PID_ARGS[@]}" --tables "$ACTIVE_TABLES" --players 4 --interval-ms 2000 \
  --duration "$ACTIVE_DURATION" --ramp-concurrency 8 --database-command postgres
stop_servers
log "action rate: $RATE_TABLES tables of 4, one action per table every $RATE_INTERVAL ms"
fresh_db
start_servers 1 9450
run_load rate --server "$URLS" "${PID_ARGS[@]}" --tables "$RATE_TABLES" --players 4 --interval-ms "$RATE_INTERVAL" \
  --duration "$ACTIVE_DURATION" --ramp-concurrency 8 --database-command postgres
stop_servers

# 5. Idle connections: the server's memory per connection, and the same for the echo server.
#    The large run holds WebSockets without hello (a new guest is a durable write, and the database is
#    not what is measured here; each server has its own SQLite file); one server then measures what a
#    greeted guest adds.
log "idle: $IDLE_CONNS connections on $IDLE_SERVERS server processes"
start_servers "$IDLE_SERVERS" 9500 "sqlite://$RESULTS/idle-PORT.db"
run_load idle --idle --no-hello --server "$URLS" "${PID_ARGS[@]}" --connections "$IDLE_CONNS" --duration "$DURATION"
stop_servers
rm -f "$RESULTS"/idle-*.db*
log "idle with hello: 15,000 guests on one server"
fresh_db
start_servers 1 9600
run_load idle-hello --idle --server "$URLS" "${PID_ARGS[@]}" --connections 15000 --duration "$DURATION" \
  --source-ip 127.0.0.100
stop_servers
log "idle baseline: 19,000 connections on one echo server, its read buffer the game server's (256 bytes)"
run_load echo-idle --echo --idle --connections 19000 --duration "$DURATION" --source-ip 127.0.0.101 \
  --echo-read-buffer-bytes 256

# 6. The store alone against PostgreSQL: finished games, and single actions through the group commit.
log "store: PostgreSQL"
fresh_db
run_load persist --persist "$PG_URL" --games "$PERSIST_GAMES" --concurrency 256 --tables "$PERSIST_TABLES" \
  --duration "$DURATION"

# 7. Faults: the crash harness, 200 SIGKILLs of a server playing bot games on PostgreSQL
#    (docs/reliability.md); the test suite runs it with 20.
log "crash harness: $CRASH_KILLS kills"
fresh_db
"$BIN" crash --kills "$CRASH_KILLS" --tables 6 --database-url "$PG_URL" | tee "$RESULTS/crash.txt"
#    The same over a cluster of three nodes meeting on NATS (NATS_URL, default nats://127.0.0.1:4222), a
#    random node killed each time, every game in turn.
log "crash harness, three nodes: $CRASH_KILLS kills"
fresh_db
"$BIN" crash --nodes 3 --kills "$CRASH_KILLS" --tables 6 --game mix --database-url "$PG_URL" \
  --cluster "${NATS_URL:-nats://127.0.0.1:4222}" | tee "$RESULTS/crash-nodes.txt"

# 8. The report.
[ "$QUICK" = 1 ] && { log "QUICK=1: docs/performance.md left as it is"; exit 0; }
log "writing docs/performance.md"
bench/report.sh >"$RESULTS/server-section.md"
python3 - "$ROOT/docs/performance.md" "$RESULTS/server-section.md" <<'EOF'
import sys
doc, section = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
begin, end = "<!-- bench/report.sh: figures begin -->\n", "<!-- bench/report.sh: figures end -->"
start, stop = text.index(begin) + len(begin), text.index(end)
open(doc, "w").write(text[:start] + section + text[stop:])
EOF
echo "docs/performance.md updated" >&2
