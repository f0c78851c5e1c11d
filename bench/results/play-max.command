romirami load --server ws://127.0.0.1:9300/ws --server-pid 23066 --tables 50 --players 4 --interval-ms 0 --duration 15 --database-command postgres
