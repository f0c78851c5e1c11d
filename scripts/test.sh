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

# Each test step's time is printed when it ends (`step NAME` starts one).
step_name=
step_started=$SECONDS
end_step() {
    if [[ -n "$step_name" ]]; then printf '==> %s: %d s\n' "$step_name" $((SECONDS - step_started)) >&2; fi
    step_name=
}
step() {
    end_step
    step_name="$*"
    step_started=$SECONDS
    log "$*"
}

# ---------------------------------------------------------------------------------------------------------
# 1. Install and start what the tests need.
#
# Each service gets a start function here that installs it when missing (apt-get), starts it and exports
# what the tests read (e.g. DATABASE_URL); its stop goes into `stop_services`, which runs on any exit, so
# nothing outlives the run. Chromium and Node's packages for the web client's test are installed by
# scripts/e2e.sh itself.
# ---------------------------------------------------------------------------------------------------------
# PostgreSQL, for the store's tests (crates/server/tests/server/store.rs), which create and drop a database of
# their own on the server that DATABASE_URL names. A local server is used, installed and started when
# missing; a DATABASE_URL already set is kept. In CI the PostgreSQL tests are mandatory: no server, no run.
POSTGRES_STARTED=()
start_postgres() {
    if [[ "${DATABASE_URL:-}" == postgres://* || "${DATABASE_URL:-}" == postgresql://* ]]; then
        log "PostgreSQL: using the DATABASE_URL already set"
        return
    fi
    if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
        if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
            log "installing PostgreSQL"
            if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; } >&2; then
                log "could not install PostgreSQL"
            fi
        fi
        local version
        for version in $(ls /etc/postgresql 2>/dev/null); do
            # The tests connect as `postgres` over TCP without a password, as on the developers' machines:
            # a fresh install (a test machine, never a production one) trusts local TCP connections too.
            local hba="/etc/postgresql/$version/main/pg_hba.conf"
            if [[ -f "$hba" ]] && ! grep -Eq '^host +all +all +127\.0\.0\.1/32 +trust' "$hba"; then
                sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
            fi
            log "starting PostgreSQL $version"
            if pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2; then
                POSTGRES_STARTED+=("$version")
            fi
        done
        local tries
        for tries in $(seq 1 30); do
            pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && break
            sleep 1
        done
    fi
    if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
        export DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
        log "PostgreSQL is up: DATABASE_URL=$DATABASE_URL"
    elif [[ "${CI:-}" == "true" ]]; then
        log "FAILED: PostgreSQL is not reachable on 127.0.0.1:5432, and CI must run the PostgreSQL tests"
        exit 1
    else
        log "WARNING: PostgreSQL is not reachable on 127.0.0.1:5432; its tests will be skipped"
    fi
}

# NATS, for the cluster's tests (crates/server/tests/server/cluster.rs), which read NATS_URL (default
# nats://127.0.0.1:4222). A running server is used; else nats-server is installed when missing and started
# on that port for the run. In CI the cluster's tests are mandatory.
NATS_PID=
start_nats() {
    export NATS_URL="${NATS_URL:-nats://127.0.0.1:4222}"
    local address="${NATS_URL#nats://}"
    if (exec 3<>"/dev/tcp/${address%:*}/${address##*:}") 2>/dev/null; then
        log "NATS: using the server at $NATS_URL"
        return
    fi
    if ! command -v nats-server >/dev/null; then
        log "installing nats-server"
        if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nats-server; } >&2; then
            log "could not install nats-server"
        fi
    fi
    if command -v nats-server >/dev/null; then
        log "starting nats-server on ${address}"
        nats-server -a "${address%:*}" -p "${address##*:}" -js -sd "$(mktemp -d)" >/dev/null 2>&1 &
        NATS_PID=$!
        local tries
        for tries in $(seq 1 50); do
            (exec 3<>"/dev/tcp/${address%:*}/${address##*:}") 2>/dev/null && return
            sleep 0.1
        done
    fi
    if [[ "${CI:-}" == "true" ]]; then
        log "FAILED: NATS is not reachable at $NATS_URL, and CI must run the cluster's tests"
        exit 1
    fi
    log "WARNING: NATS is not reachable at $NATS_URL; the cluster's tests will be skipped"
}

setup_services() {
    start_postgres
    start_nats
}

stop_services() {
    # Stop what setup_services started (and only that), in reverse order.
    if [[ -n "$NATS_PID" ]]; then kill "$NATS_PID" 2>/dev/null || true; fi
    local version
    for version in ${POSTGRES_STARTED[@]+"${POSTGRES_STARTED[@]}"}; do
        pg_ctlcluster --skip-systemctl-redirect "$version" main stop >&2 || true
    done
}
trap stop_services EXIT

# ---------------------------------------------------------------------------------------------------------
# 2. Run every test.
# ---------------------------------------------------------------------------------------------------------
run_tests() {
    # The benchmarks are not run here (`cargo clippy --all-targets` in .ci/run compiles them; bench/run.sh
    # runs them). cargo-nextest, where it is installed (CI's machines have it), runs every test of every
    # binary in one pool of processes, so that one slow binary does not hold up the rest; else cargo test.
    local targets=(--workspace --lib --bins --tests --examples)
    if cargo nextest --version >/dev/null 2>&1; then
        step "unit, integration and example tests (cargo nextest)"
        cargo nextest run "${targets[@]}" --no-fail-fast --test-threads "${TEST_THREADS:-4}"
    else
        step "unit, integration and example tests (cargo test)"
        cargo test "${targets[@]}" --no-fail-fast
    fi
    # The steps below run the `romirami` this build made (the tools' tests need it), rather than each
    # building its own: `cargo build -p romirami-tools` resolves features for that package alone and
    # would build much of the workspace again.
    local target="${CARGO_TARGET_DIR:-target}"
    [[ "$target" = /* ]] || target="$PWD/$target"
    export ROMIRAMI_BIN="$target/debug/romirami"
    step "doc tests"
    cargo test --workspace --doc
    step "the web client in a real headless Chromium (scripts/e2e.sh installs Chromium and playwright-core)"
    scripts/e2e.sh
    step "the REST API against its OpenAPI document (scripts/schemathesis.sh installs Schemathesis)"
    scripts/schemathesis.sh 30
    step "fuzz targets, bounded (scripts/fuzz.sh installs cargo-fuzz; its build is cached outside the checkout)"
    scripts/fuzz.sh "${FUZZ_SECONDS:-5}"
    end_step
}

setup_services
run_tests
log "all tests passed"
