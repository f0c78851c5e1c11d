romirami load --server ws://127.0.0.1:9400/ws --server-pid 25144 --tables 200 --players 4 --interval-ms 2000 --duration 5 --ramp-concurrency 32
