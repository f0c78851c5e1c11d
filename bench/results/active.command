romirami load --server ws://127.0.0.1:9400/ws,ws://127.0.0.1:9401/ws --server-pid 7700 --server-pid 7701 --tables 5000 --players 4 --interval-ms 2000 --duration 20 --ramp-concurrency 8
