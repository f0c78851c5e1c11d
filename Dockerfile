# The Romi Rami Online server: built in a Rust image, run in a slim Debian image (the binary carries the
# web client).
#   docker build -t romirami .
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://... romirami
# Without DATABASE_URL it keeps its games in a SQLite file under /data (mount a volume there).

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock rustfmt.toml ./
COPY crates crates
COPY migrations migrations
COPY web/index.html web/style.css web/
COPY web/js web/js
RUN cargo build --release --locked -p romirami-tools --bin romirami

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /app romirami \
    && mkdir -p /data && chown romirami /data
WORKDIR /app
COPY --from=build /src/target/release/romirami /usr/local/bin/romirami
USER romirami
ENV ROMIRAMI_LISTEN=0.0.0.0:8080 \
    ROMIRAMI_LOG_FORMAT=json \
    DATABASE_URL=sqlite:///data/romirami.db \
    RUST_LOG=info
EXPOSE 8080
ENTRYPOINT ["romirami"]
CMD ["serve"]
