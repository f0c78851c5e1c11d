romirami load --server ws://127.0.0.1:9710/ws --server-pid 2294 --spread tables --tables 48 --players 4 --interval-ms 0 --duration 15 --database-command postgres --broker-pid 2216
