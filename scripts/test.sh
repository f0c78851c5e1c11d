#!/usr/bin/env bash
# THE test command of Romi Rami Online: runs every test of the project and exits non-zero when one fails.
#
#   scripts/test.sh
#
# It first makes sure that what the tests need is installed and running, then runs the tests. It works
# from any directory and in a fresh clone (CI runs it from .ci/run with CI=true).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

log() { printf '\n==> %s\n' "$*" >&2; }

# ---------------------------------------------------------------------------------------------------------
# 1. Install and start what the tests need.
#
# Each service gets a start function here that installs it when missing (apt-get), starts it and exports
# what the tests read (e.g. DATABASE_URL, CHROME); its stop goes into `stop_services`, which runs on any
# exit, so nothing outlives the run. Nothing is needed yet: PostgreSQL (for the store's tests) and Chromium
# (for the web client's) come here.
# ---------------------------------------------------------------------------------------------------------
setup_services() {
    : # start_postgres; start_chromium
}

stop_services() {
    : # stop what setup_services started, in reverse order
}
trap stop_services EXIT

# ---------------------------------------------------------------------------------------------------------
# 2. Run every test.
# ---------------------------------------------------------------------------------------------------------
run_tests() {
    log "unit, integration, example and bench-target tests"
    cargo test --workspace --all-targets
    log "doc tests"
    cargo test --workspace --doc
}

setup_services
run_tests
log "all tests passed"
