romirami load --persist postgres://postgres@127.0.0.1:5432/romirami_bench --games 200 --concurrency 32 --tables 100 --duration 3
