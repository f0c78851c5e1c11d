# Shared by the benchmark scripts (bench/run.sh, bench/cluster.sh); sourced, not run. The sourcing script
# sets BIN (the romirami binary), RESULTS (the results folder), PG_ADMIN, PG_URL and DB_NAME.

log() { printf '\n== %s\n' "$*" >&2; }

# A fresh database for each step, so that no step restores another's games.
fresh_db() {
  psql -q "$PG_ADMIN" -c "drop database if exists $DB_NAME with (force)" -c "create database $DB_NAME" >/dev/null
}

# What server i adds to its `romirami serve` command line; a script redefines it (the cluster's nodes).
server_args() { :; }

PIDS=(); URLS=""; PID_ARGS=()
# start_servers N FIRST_PORT [DATABASE_URL]: N server processes on ports FIRST_PORT.. over one database,
# each with the arguments `server_args i` prints (one per line). Sets PIDS, URLS and PID_ARGS.
start_servers() {
  local n=$1 port=$2 db=${3:-$PG_URL}   # in db, PORT stands for each server's port
  PIDS=(); URLS=""; PID_ARGS=()
  for ((i = 0; i < n; i++)); do
    local extra=()
    mapfile -t extra < <(server_args "$i")
    RUST_LOG=warn "$BIN" serve --listen "127.0.0.1:$((port + i))" --database-url "${db//PORT/$((port + i))}" \
      --messages-per-second 1000 --message-burst 1000 "${extra[@]}" >"$RESULTS/server-$((port + i)).log" 2>&1 &
    PIDS+=($!); PID_ARGS+=(--server-pid "$!")
    URLS+="${URLS:+,}ws://127.0.0.1:$((port + i))/ws"
  done
  for ((i = 0; i < n; i++)); do
    for _ in $(seq 100); do
      curl -sf "http://127.0.0.1:$((port + i))/metrics" >/dev/null && break
      sleep 0.1
    done
  done
}
stop_servers() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  PIDS=()
}
