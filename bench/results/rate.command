romirami load --server ws://127.0.0.1:9450/ws --server-pid 23501 --tables 2500 --players 4 --interval-ms 200 --duration 20 --ramp-concurrency 8 --database-command postgres
