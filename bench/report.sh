#!/usr/bin/env bash
# Prints the server's latest figures for docs/performance.md from the results of bench/run.sh
# (bench/results/): what goes between the markers `<!-- bench/report.sh: figures begin -->` and
# `<!-- bench/report.sh: figures end -->`, which bench/run.sh replaces. The rest of that file (the goals,
# what limits each figure, the optimizations that stay) is written by hand.
set -euo pipefail
cd "$(dirname "$0")"
R=results
j() { jq -r "$2" "$R/$1.json"; }
commas() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
f0() { printf "%.0f" "$1" | commas; }
f1() { printf "%.1f" "$1" | commas; }
f2() { printf "%.2f" "$1"; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0f %%", 100 * a / b; else print "n/a" }'; }
cmd() { sed 's/--server [^ ]*/--server ws:\/\/127.0.0.1:PORT\/ws,.../; s/--server-pid [0-9]*//g; s/  */ /g' "$R/$1.command"; }

echo_fps=$(j echo .frames_per_second)
# The goal's group (docs/performance.md, "The engine"); criterion prints its name, then on the same or the
# next line "time: [low middle high]".
engine_group=complete_random_game_without_take_backs/players/4
engine4=$(awk -v group="$engine_group" 'index($0, group) == 1 { found = 1 } found && /time:/ { sub(/.*time: *\[/, ""); print $3, $4; exit }' $R/engine.txt 2>/dev/null || true)
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
**Latest figures** ($(date -u +%Y-%m-%d), one run of \`bench/run.sh\`): $(nproc) cores ($cpu), $mem, Linux $(uname -r),
PostgreSQL $pg on 127.0.0.1. The commands are the script's (\`PORT\` and the servers' pids filled in by it).

| step | command | figures |
|---|---|---|
| engine | \`cargo bench -p romirami-engine --bench games -- --warm-up-time 2 --measurement-time 5\` | \`$engine_group\`: $engine4, $(f0 "$engine4_per_s") games/s, unpinned |
| echo baseline | \`$(cmd echo)\` | $(f0 "$(j echo .actions_per_second)") round trips/s, **$(f0 "$echo_fps") frames/s**; round trip p50 $(f2 "$(j echo .latency_ms.p50)") ms, p99 $(f2 "$(j echo .latency_ms.p99)") ms |
| full speed | \`$(cmd play-max)\` | **$(f0 "$(j play-max .actions_per_second)") actions/s**, $(f1 "$(j play-max .games_per_second)") games/s, $(f0 "$max_fps") frames/s (**$(pct "$max_fps" "$echo_fps")** of the echo's); p50 $(f2 "$(j play-max .latency_ms.p50)") ms, p95 $(f2 "$(j play-max .latency_ms.p95)") ms, p99 $(f2 "$(j play-max .latency_ms.p99)") ms, max $(f2 "$(j play-max .latency_ms.max)") ms; errors $(j play-max .errors), disconnects $(j play-max .disconnects) |
| active tables | \`$(cmd active)\` | $(f0 "$(j active .connections)") connections on $(j active '.servers | length') servers: **$(f0 "$(j active .actions_per_second)") actions/s**; p50 $(f2 "$(j active .latency_ms.p50)") ms, p95 $(f2 "$(j active .latency_ms.p95)") ms, **p99 $(f2 "$(j active .latency_ms.p99)") ms**, max $(f2 "$(j active .latency_ms.max)") ms; errors $(j active .errors), disconnects $(j active .disconnects), failed connections $(j active .connect_failures); $(f0 "$(j active .server_bytes_per_connection)") bytes per connection |
| action rate | \`$(cmd rate)\` | **$(f0 "$(j rate .actions_per_second)") actions/s**; p50 $(f2 "$(j rate .latency_ms.p50)") ms, p95 $(f2 "$(j rate .latency_ms.p95)") ms, **p99 $(f2 "$(j rate .latency_ms.p99)") ms**, max $(f2 "$(j rate .latency_ms.max)") ms; errors $(j rate .errors), disconnects $(j rate .disconnects) |
| idle | \`$(cmd idle)\` | **$(f0 "$(j idle .connections)") held** on $(j idle '.servers | length') servers ($(j idle .processes) load processes), failed $(j idle .connect_failures), lost $(j idle .disconnects); **$(f0 "$(j idle .server_bytes_per_connection)") bytes per connection** |
| idle with hello | \`$(cmd idle-hello)\` | $(f0 "$(j idle-hello .connections)") guests on one server: $(f0 "$(j idle-hello .server_bytes_per_connection)") bytes per connection |
| idle echo baseline | \`$(cmd echo-idle)\` | $(f0 "$(j echo-idle .connections)") connections: $(f0 "$(j echo-idle .server_bytes_per_connection)") bytes per connection |
| store | \`$(cmd persist)\` | set-up $(f0 "$(j persist .tables_set_up_per_second)") tables/s ($(f0 "$(j persist .setup_writes_per_second)") writes/s in $(f0 "$(j persist .setup_transactions)") transactions); $(f0 "$(j persist .game_actions_per_second)") action rows/s; **$(f0 "$(j persist .games_per_second)") finished games/s** (p50 $(f2 "$(j persist .game_latency_ms.p50)") ms, p99 $(f2 "$(j persist .game_latency_ms.p99)") ms); single actions through the group commit **$(f0 "$(j persist .actions_per_second)") actions/s**, $(f1 "$(j persist .rows_per_transaction)") rows a transaction, p50 $(f2 "$(j persist .commit_latency_ms.p50)") ms, p99 $(f2 "$(j persist .commit_latency_ms.p99)") ms |

CPU time in the measured windows (from \`/proc\`); a game action is $frames_per_action frames (the action, its ack, the events
to four seats, the clocks and the next seat's \`your_turn\`):

| CPU time | echo: a round trip | echo: a frame | game: an action | game: a frame |
|---|---|---|---|---|
| server | $(f1 "$(cpu_of echo server_cpu us_per_action)") µs | $(f2 "$echo_server_us") µs | $(f1 "$(cpu_of play-max server_cpu us_per_action)") µs | $(f2 "$game_server_us") µs |
| load generator | $(f1 "$(cpu_of echo load_cpu us_per_action)") µs | $(f2 "$(cpu_of echo load_cpu us_per_frame)") µs | $(f1 "$(cpu_of play-max load_cpu us_per_action)") µs | $(f2 "$(cpu_of play-max load_cpu us_per_frame)") µs |
| PostgreSQL | | | $(f1 "$(cpu_of play-max database_cpu us_per_action)") µs | $(f2 "$(cpu_of play-max database_cpu us_per_frame)") µs |
| cores in use (server, load, PostgreSQL) | $(f2 "$(cpu_of echo server_cpu cores)"), $(f2 "$(cpu_of echo load_cpu cores)") | | $(f2 "$(cpu_of play-max server_cpu cores)"), $(f2 "$(cpu_of play-max load_cpu cores)"), $(f2 "$(cpu_of play-max database_cpu cores)") | |
EOF
