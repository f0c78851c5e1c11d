#!/usr/bin/env bash
# What crossing nodes costs: the full-speed play load (tables of 4 acting as fast as the server answers,
# every action committed to PostgreSQL before its ack) against
#   1. one node without a cluster (the single-server figures of bench/run.sh, on PostgreSQL);
#   2. one node of a cluster (the same, plus its lease and NATS);
#   3. three nodes with every table on one node (`--spread tables`: the cost of three processes);
#   4. three nodes with each table's seats on the nodes in turn (`--spread seats`: every table's
#      messages cross between nodes through NATS).
# Each run reports actions/s, the action latency (act -> every seat has the events), and the CPU per
# action of each node, of NATS and of PostgreSQL. The NATS server is one of this script's own, so that
# its CPU is this run's alone. Results go to bench/results/cluster-*.{txt,json} and a summary to
# bench/results/cluster-summary.md.
#
#   bench/cluster.sh             # 15 s per run, 48 tables
#   QUICK=1 bench/cluster.sh     # 3 s per run, 12 tables
#
# Needs: PostgreSQL on 127.0.0.1:5432 (user postgres, trust; BENCH_PG_ADMIN to change it), psql, jq,
# nats-server.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$TARGET/release/romirami
RESULTS=$ROOT/bench/results
DB_NAME=romirami_cluster_bench
PG_ADMIN=${BENCH_PG_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres}
PG_URL=postgres://postgres@127.0.0.1:5432/$DB_NAME
NATS_PORT=${BENCH_NATS_PORT:-4290}
if [ "${QUICK:-0}" = 1 ]; then TABLES=12; DURATION=3; else TABLES=${TABLES:-48}; DURATION=${DURATION:-15}; fi
mkdir -p "$RESULTS"

# shellcheck source=bench/servers.sh
source "$ROOT/bench/servers.sh"

log "building"
cargo build --release -p romirami-tools >&2

NATS_PID=
cleanup() {
  stop_servers
  [ -n "$NATS_PID" ] && kill "$NATS_PID" 2>/dev/null || true
}
trap cleanup EXIT

log "NATS on 127.0.0.1:$NATS_PORT"
nats-server -a 127.0.0.1 -p "$NATS_PORT" >"$RESULTS/cluster-nats.log" 2>&1 &
NATS_PID=$!
sleep 0.5

# A cluster's nodes: CLUSTER names the cluster, empty for a server alone.
CLUSTER=
server_args() {
  [ -n "$CLUSTER" ] && printf '%s\n' --cluster "nats://127.0.0.1:$NATS_PORT" --cluster-name "$CLUSTER" --node-id "node-$1"
  return 0
}

# run NAME NODES PORT CLUSTER SPREAD
run() {
  local name=$1 nodes=$2 port=$3 cluster=$4 spread=$5
  log "$name: $nodes node(s), cluster ${cluster:-none}, spread $spread"
  fresh_db
  CLUSTER=$cluster
  start_servers "$nodes" "$port"
  local args=(load --server "$URLS" "${PID_ARGS[@]}" --spread "$spread" --tables "$TABLES" --players 4
    --interval-ms 0 --duration "$DURATION" --database-command postgres)
  [ -n "$cluster" ] && args+=(--broker-pid "$NATS_PID")
  echo "romirami ${args[*]}" >"$RESULTS/cluster-$name.command"
  "$BIN" "${args[@]}" --json "$RESULTS/cluster-$name.json" | tee "$RESULTS/cluster-$name.txt"
  stop_servers
}

run single 1 9700 "" tables
run one-node 1 9710 "bench-$$-a" tables
run three-apart 3 9720 "bench-$$-b" tables
run three-crossing 3 9730 "bench-$$-c" seats

log "summary"
{
  echo "| run | actions/s | p50 ms | p99 ms | node CPU µs/action (each) | NATS µs/action | PostgreSQL µs/action |"
  echo "| --- | ---: | ---: | ---: | --- | ---: | ---: |"
  for name in single one-node three-apart three-crossing; do
    jq -r --arg name "$name" '"| \($name) | \(.actions_per_second | floor) | \(.latency_ms.p50 * 100 | round / 100) | \(.latency_ms.p99 * 100 | round / 100) | \(.server_cpu.us_per_action | round) (\([.each_server_cpu[].us_per_action | round] | join(", "))) | \(.broker_cpu.us_per_action // 0 | round) | \(.database_cpu.us_per_action | round) |"' \
      "$RESULTS/cluster-$name.json"
  done
} | tee "$RESULTS/cluster-summary.md"
