#!/usr/bin/env bash
# The server's memory under a burst of sign-ins (docs/reliability.md, "Memory under sign-in bursts"): 400
# concurrent `POST /api/sign-in` with unknown names (each checked against a stand-in hash, as a wrong password
# is), then the resident memory from /metrics before, right after, and a minute later.
#
#   bench/signin-burst.sh [http://127.0.0.1:8080] [400]
#
# Run the server with a throwaway database (loopback addresses are spared the per-address locks):
#   cargo run --release -- serve --database-url sqlite:///tmp/burst.db
set -euo pipefail
url="${1:-http://127.0.0.1:8080}"
count="${2:-400}"
rss() { curl -s "$url/metrics" | awk '/^process_resident_memory_bytes/ {printf "%.1f MiB", $2/1048576}'; }
echo "before: $(rss)"
seq 1 "$count" | xargs -P "$count" -I{} curl -s -o /dev/null -X POST "$url/api/sign-in" \
    -H 'content-type: application/json' -d '{"name":"Nobody {}","password":"not the password"}'
echo "after $count sign-ins: $(rss)"
sleep 60
echo "a minute later: $(rss)"
