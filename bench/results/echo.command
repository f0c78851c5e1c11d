romirami load --echo --connections 50 --interval-ms 0 --payload-bytes 256 --duration 3
