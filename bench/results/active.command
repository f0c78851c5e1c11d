romirami load --server ws://127.0.0.1:9400/ws,ws://127.0.0.1:9401/ws --server-pid 29364 --server-pid 29365 --tables 5000 --players 4 --interval-ms 2000 --duration 20 --ramp-concurrency 8
