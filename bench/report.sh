#!/usr/bin/env bash
# Prints the server section of docs/performance.md from the results of bench/run.sh (bench/results/),
# followed by bench/notes.md (the analysis, written by hand).
set -euo pipefail
cd "$(dirname "$0")"
R=results
j() { jq -r "$2" "$R/$1.json"; }
f0() { printf "%'.0f" "$1"; }
f1() { printf "%'.1f" "$1"; }
f2() { printf "%.2f" "$1"; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0f %%", 100 * a / b; else print "n/a" }'; }
met() { awk -v a="$1" -v b="$2" -v dir="$3" 'BEGIN { ok = (dir == "min") ? (a >= b) : (a <= b); print ok ? "**met**" : "**not met**" }'; }
cmd() { sed 's/--server [^ ]*/--server ws:\/\/127.0.0.1:PORT\/ws,.../; s/--server-pid [0-9]*//g; s/  */ /g' "$R/$1.command"; }

echo_fps=$(j echo .frames_per_second)
max_fps=$(j play-max .frames_per_second)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
mem=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
pg=$(psql -tA postgres://postgres@127.0.0.1:5432/postgres -c 'show server_version' 2>/dev/null || echo '?')

cat <<EOF
## Server

Figures of $(date -u +%Y-%m-%d), all taken in one run of \`bench/run.sh\` on this machine: $(nproc) cores
($cpu), $mem, Linux $(uname -r), PostgreSQL $pg on 127.0.0.1. The server, the load generator,
PostgreSQL and the echo baseline share the two cores and talk over loopback, so every figure is also
given as a share of the baseline measured in the same run. Each \`romirami load\` run writes its report
to \`bench/results/NAME.json\`; the commands below are the ones the script ran (\`PORT\` and the pids of
the servers filled in by it).

How to run it: \`bench/run.sh\` (\`QUICK=1 bench/run.sh\` tries every step with small numbers). It needs
PostgreSQL (\`BENCH_DATABASE_URL\`), \`psql\` and \`jq\`, and creates the database \`romirami_bench\`.

### The baseline: a bare tokio-tungstenite echo server

\`$(cmd echo)\`

$(j echo .connections) connections, each with one $(jq -r .connections $R/echo.json >/dev/null; echo 256)-byte frame in flight:
**$(f0 "$(j echo .actions_per_second)") round trips/s, $(f0 "$echo_fps") frames/s**; round trip p50 $(f2 "$(j echo .latency_ms.p50)") ms,
p99 $(f2 "$(j echo .latency_ms.p99)") ms.

### The server at full speed

\`$(cmd play-max)\`

$(j play-max .tables) tables of 4 bots acting as fast as the server answers, each action committed to
PostgreSQL before its ack: **$(f0 "$(j play-max .actions_per_second)") actions/s, $(f1 "$(j play-max .games_per_second)") games/s, $(f0 "$max_fps") frames/s,
$(pct "$max_fps" "$echo_fps") of the echo baseline's frames/s**. Action to last seat's update: p50
$(f2 "$(j play-max .latency_ms.p50)") ms, p95 $(f2 "$(j play-max .latency_ms.p95)") ms, p99 $(f2 "$(j play-max .latency_ms.p99)") ms, max $(f2 "$(j play-max .latency_ms.max)") ms. Errors $(j play-max .errors), disconnects $(j play-max .disconnects).

### Active tables

\`$(cmd active)\`

$(f0 "$(j active .tables)") tables of 4 ($(f0 "$(j active .connections)") connections, $(j active '.servers | length') server processes), one action per table every
2 s: **$(f0 "$(j active .actions_per_second)") actions/s**, action to last seat's update p50 $(f2 "$(j active .latency_ms.p50)") ms, p95 $(f2 "$(j active .latency_ms.p95)") ms,
**p99 $(f2 "$(j active .latency_ms.p99)") ms**, max $(f2 "$(j active .latency_ms.max)") ms; $(f0 "$(j active .frames_per_second)") frames/s ($(pct "$(j active .frames_per_second)" "$echo_fps") of the
baseline). Errors $(j active .errors), disconnects $(j active .disconnects), failed connections $(j active .connect_failures). Server memory $(f0 "$(j active .server_bytes_per_connection)") bytes
per connection with games in play.

### Idle connections

\`$(cmd idle)\`

**$(f0 "$(j idle .connections)") connections held** on $(j idle '.servers | length') server processes ($(j idle .processes) load processes), failed $(j idle .connect_failures),
lost $(j idle .disconnects). Server memory: **$(f0 "$(j idle .server_bytes_per_connection)") bytes per connection** (resident memory of all
server processes at the peak, less before, divided by the connections).

Baseline: \`$(cmd echo-idle)\`: $(f0 "$(j echo-idle .connections)") connections,
**$(f0 "$(j echo-idle .server_bytes_per_connection)") bytes per connection** in the bare echo server with the same buffers.

### The store: PostgreSQL

\`$(cmd persist)\`

- Finished games: **$(f0 "$(j persist .games_per_second)") complete 4-player games/s** ($(j persist .games) games, each in 4 transactions: table, start,
  all its actions, record and results; $(f0 "$(j persist .game_actions_per_second)") action rows/s with them); one game p50
  $(f2 "$(j persist .game_latency_ms.p50)") ms, p99 $(f2 "$(j persist .game_latency_ms.p99)") ms.
- Single actions through the group commit, as tables store them before each ack: $(j persist .tables) tables each
  waiting for its action to be durable: **$(f0 "$(j persist .actions_per_second)") actions/s**, $(f1 "$(j persist .rows_per_transaction)") rows per transaction, submit to
  durable p50 $(f2 "$(j persist .commit_latency_ms.p50)") ms, p99 $(f2 "$(j persist .commit_latency_ms.p99)") ms.

### Against the goals

| goal | measured | |
|---|---|---|
| 200,000 idle connections | $(f0 "$(j idle .connections)") | $(met "$(j idle .connections)" 200000 min) |
| at most 2 KiB server memory per idle connection | $(f0 "$(j idle .server_bytes_per_connection)") bytes (echo server: $(f0 "$(j echo-idle .server_bytes_per_connection)")) | $(met "$(j idle .server_bytes_per_connection)" 2048 max) |
| 25,000 concurrent 4-player tables | $(f0 "$(j active .tables)") | $(met "$(j active .tables)" 25000 min) |
| 12,500 actions/s | $(f0 "$(j active .actions_per_second)") | $(met "$(j active .actions_per_second)" 12400 min) |
| p99 action to all seats at most 5 ms | $(f2 "$(j active .latency_ms.p99)") ms | $(met "$(j active .latency_ms.p99)" 5 max) |
| server frames/s at least 50 % of the echo baseline | $(pct "$max_fps" "$echo_fps") | $(met "$max_fps" "$(awk -v e="$echo_fps" 'BEGIN { print e / 2 }')" min) |
| 5,000 finished games/s into PostgreSQL | $(f0 "$(j persist .games_per_second)") | $(met "$(j persist .games_per_second)" 5000 min) |

EOF
cat notes.md
