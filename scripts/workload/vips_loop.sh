#!/usr/bin/env bash
# vips_loop.sh DIR -- the `vips thumbnail` reference for the image stage: for every JPEG in DIR,
# the renditions Marquee makes (cell squares of 100 and 200 px, detail widths of 680 and 1360 px,
# each as AVIF, WebP and JPEG with Marquee's settings), one `vips thumbnail` per file, two at a
# time. Prints `vips_loop_s=SECONDS` (wall time, output in $BENCH_DIR/vips-loop).
set -euo pipefail
DIR=${1:?usage: vips_loop.sh DIR}
OUT=${BENCH_DIR:-/tmp/bench}/vips-loop
rm -rf "$OUT" && mkdir -p "$OUT"
jobs=$(mktemp)
trap 'rm -f "$jobs"' EXIT
for photo in "$DIR"/*.jpg; do
  name=$(basename "$photo" .jpg)
  for format in "avif[Q=50,effort=0,compression=av1,strip]" "webp[Q=75,effort=2,strip]" "jpg[Q=80,optimize_coding,interlace,strip]"; do
    for size in 100 200; do
      echo "$photo $OUT/$name-${size}c.$format $size --height $size --crop centre --size down" >> "$jobs"
    done
    for width in 680 1360; do
      echo "$photo $OUT/$name-$width.$format $width --height 10000000 --size down" >> "$jobs"
    done
  done
done
start=$EPOCHREALTIME
xargs -P 2 -L 1 vips thumbnail < "$jobs"
end=$EPOCHREALTIME
echo "renditions=$(ls "$OUT" | wc -l)"
echo "vips_loop_s=$(awk "BEGIN { print $end - $start }")"
