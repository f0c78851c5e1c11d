#!/usr/bin/env bash
# End-to-end test of the web client (web/) in a real headless Chromium; exits non-zero when it fails.
#
#   scripts/e2e.sh
#
# It builds `romirami` (`cargo build -p romirami-tools`, into $CARGO_TARGET_DIR when set) unless
# ROMIRAMI_BIN names one already built, installs
# Debian's chromium with apt-get when /usr/bin/chromium is missing (no tool downloads a browser of its
# own), installs playwright-core, typescript and prettier with `npm ci` in web/e2e, type-checks web/js with
# TypeScript's compiler (no build: `tsc --noEmit` over the JSDoc-typed modules), checks its formatting, starts `romirami serve` on a free port with a
# throwaway database, runs web/e2e/e2e.mjs against it and stops the server.
#
# Environment: CHROME (the browser, default /usr/bin/chromium); E2E_SCREENSHOTS (a folder to save the
# screenshots in, e.g. docs/screenshots; by default none is taken: each costs Chromium a full paint and
# a PNG, and the run is short of CPU); E2E_TIMEOUT_MS (default 600000);
# E2E_SEED (repeat a run's choices); E2E_ONLY (scenario names, comma-separated, as listed in web/e2e/e2e.mjs: run only those).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD

log() { printf '\n==> %s\n' "$*" >&2; }

# The binary the caller names (scripts/test.sh names the one its `cargo test` built: a build here would
# resolve the workspace's features for this package alone and build much of it again), else built here.
if [[ -n "${ROMIRAMI_BIN:-}" ]]; then
    BIN=$ROMIRAMI_BIN
else
    log "building the server"
    cargo build -p romirami-tools
    BIN="${CARGO_TARGET_DIR:-$ROOT/target}/debug/romirami"
fi
[[ "$BIN" = /* ]] || BIN="$ROOT/$BIN"

export CHROME="${CHROME:-/usr/bin/chromium}"
if [[ ! -x "$CHROME" ]]; then
    log "installing chromium (apt-get)"
    if [[ $(id -u) -eq 0 ]]; then SUDO=(); else SUDO=(sudo); fi
    "${SUDO[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq chromium chromium-driver >&2
fi

log "installing the test's packages (npm ci in web/e2e)"
(cd web/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)

log "type-checking the web client (tsc --noEmit --allowJs --checkJs, web/e2e/tsconfig.json)"
(cd web/e2e && npx --no-install tsc -p .)

log "checking the web client's formatting (prettier --check, web/.prettierrc.json: lines of at most 120)"
(cd web && e2e/node_modules/.bin/prettier --check 'js/**/*.js' 'e2e/*.mjs' sw.js style.css)

WORK=$(mktemp -d)
SERVER_PIDS=()
cleanup() {
    local pid
    for pid in ${SERVER_PIDS[@]+"${SERVER_PIDS[@]}"}; do
        if kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

# The client built into the binary, as a release serves it (the build above embeds web/ as it is now).
ARGS=(serve --listen 127.0.0.1:0)
# A scenario plays one or two rated games: one is enough to put its players on the leaderboard (the
# server's default asks for 3).
ARGS+=(--leaderboard-min-games 1)
# The server's bots wait 700 ms before each move so that people can follow them; the scenarios follow
# them by what the page shows, not by time, so they wait 150 ms here (the bots' games take a third of
# the time): still long enough for a player whose time ran out to see the bot playing for her.
ARGS+=(--bot-delay-ms "${E2E_BOT_DELAY_MS:-150}")
# A starting game (and a duplicate tournament round) waits for its players' contributions to the deal; the
# browsers here send theirs at once, and a player who is not at the table yet (a rematch's) is drawn for
# after 1 s rather than the server's 3 s (the scenarios do not wait for that draw).
ARGS+=(--contribution-wait-ms 1000)
# The analyses the `replays` scenario asks for: a few dozen playouts per decision are enough to show them
# (the server's default buys a stable judgement, docs/analysis.md, with seconds of a release build per game).
ARGS+=(--analysis-playouts "${E2E_ANALYSIS_PLAYOUTS:-60}")
# The `tournaments` scenario's Swiss has one round: the pause between rounds never comes; a short one all
# the same, should it ever have more.
ARGS+=(--tournament-round-pause-ms 2000)
# Its four players' tournament is told live as a large one is (its leaders and counts, docs/tournaments.md),
# so that the scenario sees both ways: whole on loading and at its end, partial in between.
ARGS+=(--tournament-live-view-bytes 1)

# Starts a server for the lane `$1` with a throwaway database of its own (this also keeps a DATABASE_URL
# exported for other tests from reaching it); sets URL to where it listens.
start_server() {
    local lane=$1
    log "starting the server of lane $lane: romirami ${ARGS[*]} --database-url sqlite://$WORK/$lane.db"
    RUST_LOG="${RUST_LOG:-warn}" "$BIN" "${ARGS[@]}" --database-url "sqlite://$WORK/$lane.db" \
        >"$WORK/$lane.out" 2>"$WORK/$lane.err" &
    local pid=$!
    SERVER_PIDS+=("$pid")
    URL=
    for _ in $(seq 1 300); do
        URL=$(grep -o 'http://[0-9.]*:[0-9]*' "$WORK/$lane.out" | head -n1 || true)
        [[ -n "$URL" ]] && break
        if ! kill -0 "$pid" 2>/dev/null; then
            cat "$WORK/$lane.err" >&2
            log "FAILED: the server of lane $lane did not start"
            exit 1
        fi
        sleep 0.1
    done
    if [[ -z "$URL" ]]; then
        log "FAILED: the server of lane $lane did not say where it listens"
        exit 1
    fi
    log "lane $lane: server at $URL"
}

# The scenarios run in two lanes at once, each with a server and a database of its own, so that neither
# sees the other's players, tables or leaderboard: most of a scenario's time is waiting for the page, and
# two lanes take about half the time of one on two cores. The lanes are balanced by the scenarios' times
# (printed as they run). E2E_ONLY runs the scenarios it names in one lane.
if [[ -n "${E2E_ONLY:-}" ]]; then
    LANES=("$E2E_ONLY")
else
    LANES=("players,bots,rummy,install,accounts" "together,again,shell,rummy-board,replays,tournaments,moderation")
fi
SHOT_ARGS=()
if [[ -n "${E2E_SCREENSHOTS:-}" ]]; then
    SHOT_ARGS=(--screenshots "$(cd "$ROOT" && mkdir -p "$E2E_SCREENSHOTS" && cd "$E2E_SCREENSHOTS" && pwd)")
fi
LANE_PIDS=()
for lane in "${!LANES[@]}"; do
    start_server "lane$lane"
    (cd web/e2e && E2E_ONLY="${LANES[$lane]}" E2E_LANE="$lane" ROMIRAMI_URL="$URL" ROMIRAMI_BIN="$BIN" \
        ROMIRAMI_DATABASE_URL="sqlite://$WORK/lane$lane.db" node e2e.mjs ${SHOT_ARGS[@]+"${SHOT_ARGS[@]}"}) &
    LANE_PIDS+=($!)
done
status=0
for lane in "${!LANES[@]}"; do
    if ! wait "${LANE_PIDS[$lane]}"; then
        status=1
        log "lane $lane (${LANES[$lane]}) FAILED; its server's log:"
        tail -n 50 "$WORK/lane$lane.err" >&2 || true
    fi
done
if [[ $status -ne 0 ]]; then
    log "FAILED: the end-to-end test of the web client"
    exit "$status"
fi
log "the end-to-end test of the web client passed"
