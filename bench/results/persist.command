romirami load --persist postgres://postgres@127.0.0.1:5432/romirami_bench --games 5000 --concurrency 256 --tables 2000 --duration 15
