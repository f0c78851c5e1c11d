romirami load --echo --connections 200 --interval-ms 0 --payload-bytes 256 --duration 15
