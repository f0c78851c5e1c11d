#!/usr/bin/env bash
# Prints the server section of docs/performance.md from the results of bench/run.sh (bench/results/),
# followed by bench/notes.md (the analysis, written by hand).
set -euo pipefail
cd "$(dirname "$0")"
R=results
j() { jq -r "$2" "$R/$1.json"; }
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
f0() { printf "%.0f" "$1" | commas; }
f1() { printf "%.1f" "$1" | commas; }
f2() { printf "%.2f" "$1"; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0f %%", 100 * a / b; else print "n/a" }'; }
met() { awk -v a="$1" -v b="$2" -v dir="$3" 'BEGIN { ok = (dir == "min") ? (a >= b) : (a <= b); print ok ? "**met**" : "**not met**" }'; }
cmd() { sed 's/--server [^ ]*/--server ws:\/\/127.0.0.1:PORT\/ws,.../; s/--server-pid [0-9]*//g; s/  */ /g' "$R/$1.command"; }

echo_fps=$(j echo .frames_per_second)
# criterion prints "complete_random_game/players/4" then "time: [low middle high]".
engine4=$(awk '/^complete_random_game\/players\/4/ { found = 1 } found && /time:/ { print $4, $5; exit }' $R/engine.txt 2>/dev/null || true)
engine4_per_s=$(echo "$engine4" | awk '{ v = $1; u = $2; s = (u == "ns") ? v / 1e9 : (u == "µs" || u == "us") ? v / 1e6 : (u == "ms") ? v / 1e3 : 0; print (s > 0) ? 1 / s : 0 }')
max_fps=$(j play-max .frames_per_second)
# CPU time per frame (from /proc, over each run's window): the echo server's and the game server's alone,
# then with everything that ran for them (the load generator; for the game, PostgreSQL too).
cpu_of() { jq -r "(.$2 // {}).$3 // 0" "$R/$1.json"; }
echo_server_us=$(cpu_of echo server_cpu us_per_frame)
echo_all_us=$(awk -v a="$echo_server_us" -v b="$(cpu_of echo load_cpu us_per_frame)" 'BEGIN { print a + b }')
game_server_us=$(cpu_of play-max server_cpu us_per_frame)
game_all_us=$(awk -v a="$game_server_us" -v b="$(cpu_of play-max load_cpu us_per_frame)" -v c="$(cpu_of play-max database_cpu us_per_frame)" 'BEGIN { print a + b + c }')
frames_per_action=$(awk -v f="$max_fps" -v a="$(j play-max .actions_per_second)" 'BEGIN { if (a > 0) printf "%.1f", f / a; else print 0 }')
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

### The engine in the same run

\`cargo bench -p romirami-engine --bench games -- --warm-up-time 2 --measurement-time 5\` (the engine's own
section above has its analysis): a complete random 4-player game took **$engine4** (criterion's middle
estimate), **$(f0 "$engine4_per_s") games/s** on one core (unpinned, the machine shared with other work).

### The baseline: a bare tokio-tungstenite echo server

\`$(cmd echo)\`

$(f0 "$(j echo .connections)") connections, each with one $(jq -r .connections $R/echo.json >/dev/null; echo 256)-byte frame in flight:
**$(f0 "$(j echo .actions_per_second)") round trips/s, $(f0 "$echo_fps") frames/s**; round trip p50 $(f2 "$(j echo .latency_ms.p50)") ms,
p99 $(f2 "$(j echo .latency_ms.p99)") ms.

### The server at full speed

\`$(cmd play-max)\`

$(f0 "$(j play-max .tables)") tables of 4 bots acting as fast as the server answers, each action committed to
PostgreSQL before its ack: **$(f0 "$(j play-max .actions_per_second)") actions/s, $(f1 "$(j play-max .games_per_second)") games/s, $(f0 "$max_fps") frames/s,
$(pct "$max_fps" "$echo_fps") of the echo baseline's frames/s**. Action to last seat's update: p50
$(f2 "$(j play-max .latency_ms.p50)") ms, p95 $(f2 "$(j play-max .latency_ms.p95)") ms, p99 $(f2 "$(j play-max .latency_ms.p99)") ms, max $(f2 "$(j play-max .latency_ms.max)") ms. Errors $(j play-max .errors), disconnects $(j play-max .disconnects).

### Where the time of an action goes

The same two runs, with the CPU time each group of processes used in the measured window (read from
\`/proc\`: the servers given by \`--server-pid\` or the echo servers the tool started, the tool's own
processes, and with \`--database-command postgres\` every PostgreSQL process). An echo round trip is two
frames; a game action is $frames_per_action frames (the action, its ack, the events to each of four seats, the
clocks on a new turn and the next seat's \`your_turn\`, as the load generator receives them).

| CPU time | echo: a round trip | echo: a frame | game: an action | game: a frame |
|---|---|---|---|---|
| server | $(f1 "$(cpu_of echo server_cpu us_per_action)") µs | $(f2 "$echo_server_us") µs | $(f1 "$(cpu_of play-max server_cpu us_per_action)") µs | $(f2 "$game_server_us") µs |
| load generator | $(f1 "$(cpu_of echo load_cpu us_per_action)") µs | $(f2 "$(cpu_of echo load_cpu us_per_frame)") µs | $(f1 "$(cpu_of play-max load_cpu us_per_action)") µs | $(f2 "$(cpu_of play-max load_cpu us_per_frame)") µs |
| PostgreSQL | | | $(f1 "$(cpu_of play-max database_cpu us_per_action)") µs | $(f2 "$(cpu_of play-max database_cpu us_per_frame)") µs |
| cores in use (server, load, PostgreSQL) | $(f2 "$(cpu_of echo server_cpu cores)"), $(f2 "$(cpu_of echo load_cpu cores)") | | $(f2 "$(cpu_of play-max server_cpu cores)"), $(f2 "$(cpu_of play-max load_cpu cores)"), $(f2 "$(cpu_of play-max database_cpu cores)") | |

Per frame, the game server alone costs $(pct "$game_server_us" "$echo_server_us") of the echo server's time: it
does **$(pct "$echo_server_us" "$game_server_us") of the echo server's frames per CPU second**. With everything a frame
costs the machine (server and load generator; for the game, PostgreSQL as well) the share is
$(pct "$echo_all_us" "$game_all_us"): the most of the echo's frames/s the game can reach on cores that all of them share.

### Active tables

\`$(cmd active)\`

$(f0 "$(j active .tables)") tables of 4 ($(f0 "$(j active .connections)") connections, $(j active '.servers | length') server processes), one action per table every
2 s: **$(f0 "$(j active .actions_per_second)") actions/s**, action to last seat's update p50 $(f2 "$(j active .latency_ms.p50)") ms, p95 $(f2 "$(j active .latency_ms.p95)") ms,
**p99 $(f2 "$(j active .latency_ms.p99)") ms**, max $(f2 "$(j active .latency_ms.max)") ms; $(f0 "$(j active .frames_per_second)") frames/s. Errors $(j active .errors), disconnects
$(j active .disconnects), failed connections $(j active .connect_failures). Server memory $(f0 "$(j active .server_bytes_per_connection)") bytes per connection with games in play.

The goal's action rate with fewer tables: \`$(cmd rate)\`

$(f0 "$(j rate .tables)") tables of 4, one action per table every 200 ms: **$(f0 "$(j rate .actions_per_second)") actions/s**, p50 $(f2 "$(j rate .latency_ms.p50)") ms, p95
$(f2 "$(j rate .latency_ms.p95)") ms, **p99 $(f2 "$(j rate .latency_ms.p99)") ms**, max $(f2 "$(j rate .latency_ms.max)") ms; $(f0 "$(j rate .frames_per_second)") frames/s. Errors $(j rate .errors),
disconnects $(j rate .disconnects).

### Idle connections

\`$(cmd idle)\`

**$(f0 "$(j idle .connections)") WebSockets held** on $(j idle '.servers | length') server processes ($(j idle .processes) load processes, each from its own
127.0.0.x), failed $(j idle .connect_failures), lost $(j idle .disconnects). Server memory: **$(f0 "$(j idle .server_bytes_per_connection)") bytes per connection** (the resident
memory of every server process at the peak, less before, divided by the connections).

With hello (a guest each, stored in PostgreSQL): \`$(cmd idle-hello)\`: $(f0 "$(j idle-hello .connections)") guests on one
server, **$(f0 "$(j idle-hello .server_bytes_per_connection)") bytes per connection**.

Baseline: \`$(cmd echo-idle)\`: $(f0 "$(j echo-idle .connections)") connections,
**$(f0 "$(j echo-idle .server_bytes_per_connection)") bytes per connection** in the bare echo server.

### The store: PostgreSQL

\`$(cmd persist)\`

- Finished games: $(f0 "$(j persist .games)") 4-player games of a random player (about 230 actions each) are stored with
  the server's calls. Set-up through the writer's group commit (a guest per seat, the table, each seat, the start):
  $(f0 "$(j persist .tables_set_up_per_second)") tables/s, $(f0 "$(j persist .setup_writes_per_second)") durable writes/s in $(f0 "$(j persist .setup_transactions)") transactions. All the actions of each game in one
  batch: $(f0 "$(j persist .game_actions_per_second)") action rows/s. Then each game is finished through the writer (its record and a
  result per seat, group-committed with the games finishing at the same time): **$(f0 "$(j persist .games_per_second)") finished games/s**;
  finishing one game p50 $(f2 "$(j persist .game_latency_ms.p50)") ms, p99 $(f2 "$(j persist .game_latency_ms.p99)") ms. Counting their set-up and actions too, $(f0 "$(j persist .games_with_actions_per_second)") whole games/s.
- Single actions through the group commit, as tables store them before each ack: $(f0 "$(j persist .tables)") tables each
  waiting for its action to be durable: **$(f0 "$(j persist .actions_per_second)") actions/s**, $(f1 "$(j persist .rows_per_transaction)") rows per transaction, submit to
  durable p50 $(f2 "$(j persist .commit_latency_ms.p50)") ms, p99 $(f2 "$(j persist .commit_latency_ms.p99)") ms.

### Against the goals

| goal | measured | |
|---|---|---|
| 200,000 idle connections | $(f0 "$(j idle .connections)") | $(met "$(j idle .connections)" 200000 min) |
| at most 2 KiB server memory per idle connection | $(f0 "$(j idle .server_bytes_per_connection)") bytes, $(f0 "$(j idle-hello .server_bytes_per_connection)") with hello (echo server: $(f0 "$(j echo-idle .server_bytes_per_connection)")) | $(met "$(j idle .server_bytes_per_connection)" 2048 max) |
| 25,000 concurrent 4-player tables | $(f0 "$(j active .tables)") | $(met "$(j active .tables)" 25000 min) |
| 12,500 actions/s | $(f0 "$(j active .actions_per_second)") at $(f0 "$(j active .tables)") tables, $(f0 "$(j rate .actions_per_second)") at $(f0 "$(j rate .tables)") tables | $(met "$(j active .actions_per_second)" 12400 min) |
| p99 action to all seats at most 5 ms | $(f2 "$(j active .latency_ms.p99)") ms at $(f0 "$(j active .tables)") tables, $(f2 "$(j rate .latency_ms.p99)") ms at $(f0 "$(j rate .tables)") tables | $(met "$(j active .latency_ms.p99)" 5 max) |
| server frames/s at least 50 % of the echo baseline | $(pct "$max_fps" "$echo_fps") (frames per CPU second, the server alone: $(pct "$echo_server_us" "$game_server_us") of the echo server's) | $(met "$max_fps" "$(awk -v e="$echo_fps" 'BEGIN { print e / 2 }')" min) |
| 100,000 random 4-player games/s per core (engine) | $(f0 "$engine4_per_s") | $(met "$engine4_per_s" 100000 min) |
| 5,000 finished games/s into PostgreSQL | $(f0 "$(j persist .games_per_second)") | $(met "$(j persist .games_per_second)" 5000 min) |

EOF
cat notes.md
