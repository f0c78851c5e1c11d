#!/usr/bin/env python3
"""Draws the web app's icons (web/icons/icon-192.png, icon-512.png): a white heart on the site's rose red,
full bleed, its heart inside the middle 60 % so that it survives any mask a launcher puts on it (the
manifest declares the icons `any maskable`). Pure Python (zlib only), anti-aliased by supersampling.

    python3 scripts/make-icons.py
"""
import os
import struct
import zlib

ROSE = (0xD6, 0x33, 0x6C)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4  # per axis, per pixel


def inside_heart(x, y):
    """The heart curve (x² + y² − 1)³ − x²y³ ≤ 0, y up, in a box of about [-1.2, 1.2] × [-1, 1.25]."""
    a = x * x + y * y - 1.0
    return a * a * a - x * x * y * y * y <= 0.0


def pixel(size, px, py):
    covered = 0
    for sy in range(SAMPLES):
        for sx in range(SAMPLES):
            # The heart fills 60 % of the icon's width, a little above the middle's optical centre.
            u = ((px + (sx + 0.5) / SAMPLES) / size - 0.5) / 0.6 * 2.5
            v = -((py + (sy + 0.5) / SAMPLES) / size - 0.47) / 0.6 * 2.5
            covered += inside_heart(u, v)
    t = covered / (SAMPLES * SAMPLES)
    return bytes(round(ROSE[i] * (1 - t) + WHITE[i] * t) for i in range(3))


def png(size):
    rows = b"".join(b"\x00" + b"".join(pixel(size, x, y) for x in range(size)) for y in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "web", "icons")
    os.makedirs(out, exist_ok=True)
    for size in (192, 512):
        with open(os.path.join(out, f"icon-{size}.png"), "wb") as f:
            f.write(png(size))
