romirami load --idle --server ws://127.0.0.1:9500/ws,ws://127.0.0.1:9501/ws --server-pid 25735 --server-pid 25736 --connections 4000 --duration 3
