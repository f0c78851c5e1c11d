romirami load --server ws://127.0.0.1:9700/ws --server-pid 2227 --spread tables --tables 48 --players 4 --interval-ms 0 --duration 15 --database-command postgres
