romirami load --echo --idle --connections 19000 --duration 15 --source-ip 127.0.0.101 --echo-read-buffer-bytes 256
