romirami load --echo --idle --connections 19000 --duration 3
