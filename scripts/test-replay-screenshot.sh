#!/usr/bin/env bash
# Screenshot a ferrobody replay page with headless Chromium (SwiftShader WebGL)
# and check that the picture actually shows a rendered scene.
#
# usage: bash scripts/test-replay-screenshot.sh PATH/replay.html OUT.png
#
# Checks:
#   1. the page reports data-replay="ok" on <body> (no WebGL/GLB error message);
#   2. the PNG is not uniform: >= 2% of the pixels differ from the background
#      colour by more than 40/255 in some channel (the semi-transparent UI
#      panels differ by ~30, so they alone do not pass), and there are >= 3
#      distinct colour clusters.
# Not part of `cargo test`; needs Debian's chromium (installed here if missing).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: bash $0 PATH/replay.html OUT.png" >&2
  exit 2
fi
PAGE=$1
OUT=$2
[ -f "$PAGE" ] || { echo "error: no such page: $PAGE" >&2; exit 2; }
PAGE_URL="file://$(cd "$(dirname "$PAGE")" && pwd)/$(basename "$PAGE")"

if ! command -v chromium >/dev/null 2>&1; then
  echo "chromium not found; installing it with apt-get" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE"' EXIT
FLAGS=(--headless --no-sandbox --disable-gpu --use-gl=swiftshader --enable-unsafe-swiftshader
       --disable-background-networking --disable-component-update --disable-sync --no-first-run
       --user-data-dir="$PROFILE" --window-size=1000,700 --virtual-time-budget=3000)

rm -f "$OUT"
timeout 120 chromium "${FLAGS[@]}" --screenshot="$OUT" "$PAGE_URL" >"$PROFILE/screenshot.log" 2>&1 || true
if [ ! -s "$OUT" ]; then
  echo "FAIL: chromium wrote no screenshot; its output:" >&2
  tail -20 "$PROFILE/screenshot.log" >&2
  exit 1
fi

DOM=$(timeout 120 chromium "${FLAGS[@]}" --dump-dom "$PAGE_URL" 2>/dev/null || true)
if ! grep -q 'data-replay="ok"' <<<"$DOM"; then
  echo "FAIL: the page did not report data-replay=\"ok\" (WebGL missing or GLB rejected)" >&2
  grep -o '<div id="msg"[^<]*' <<<"$DOM" >&2 || true
  exit 1
fi

python3 - "$OUT" <<'EOF'
import struct, sys, zlib
from collections import Counter

path = sys.argv[1]
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("FAIL: %s is not a PNG" % path)
pos, idat, hdr = 8, b"", None
while pos < len(data):
    length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if ctype == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", body)
    elif ctype == b"IDAT":
        idat += body
    pos += 12 + length
width, height, depth, color, _, _, interlace = hdr
channels = {2: 3, 6: 4}.get(color)
if depth != 8 or channels is None or interlace:
    sys.exit("FAIL: unsupported PNG format (depth %d, colour type %d, interlace %d)" % (depth, color, interlace))

raw = zlib.decompress(idat)
stride = width * channels
prev = bytearray(stride)
pixels = []
for y in range(height):
    ftype = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):          # undo the PNG row filter
        a = line[i - channels] if i >= channels else 0
        b = prev[i]
        c = prev[i - channels] if i >= channels else 0
        if ftype == 1:
            line[i] = (line[i] + a) & 255
        elif ftype == 2:
            line[i] = (line[i] + b) & 255
        elif ftype == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif ftype == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    pixels.extend(tuple(line[i:i + 3]) for i in range(0, stride, channels))
    prev = line

total = len(pixels)
# Background: the colour of the top-left corner region (sky above the scene).
background = Counter(pixels[y * width + x] for y in range(60, 80) for x in range(0, 5)).most_common(1)[0][0]
differing = sum(1 for p in pixels if max(abs(p[k] - background[k]) for k in range(3)) > 40)
# Colour clusters: 4 levels per channel, clusters holding at least 0.2% of the pixels.
bins = Counter((p[0] >> 6, p[1] >> 6, p[2] >> 6) for p in pixels)
clusters = [b for b, n in bins.items() if n >= 0.002 * total]
frac = differing / total
print("%s: %dx%d, background %s, %.1f%% of pixels differ, %d colour clusters"
      % (path, width, height, background, 100 * frac, len(clusters)))
if frac < 0.02:
    sys.exit("FAIL: image is (nearly) uniform: only %.2f%% of pixels differ from the background" % (100 * frac))
if len(clusters) < 3:
    sys.exit("FAIL: only %d colour clusters (need >= 3)" % len(clusters))
print("OK: replay screenshot shows a rendered scene")
EOF
