romirami load --idle --server ws://127.0.0.1:9600/ws --server-pid 23725 --connections 15000 --duration 15 --source-ip 127.0.0.100
