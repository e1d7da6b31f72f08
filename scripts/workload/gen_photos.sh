#!/usr/bin/env bash
# gen_photos.sh N DIR -- writes N different 2400x1600 JPEG photos (DIR/photo-001.jpg ...), the same
# bytes for the same N: windows cut from one large noise picture, each tinted differently.
set -euo pipefail
N=${1:?usage: gen_photos.sh N DIR}
DIR=${2:?usage: gen_photos.sh N DIR}
mkdir -p "$DIR"
base=$(mktemp -d)
trap 'rm -rf "$base"' EXIT
for band in 1 2 3; do
  vips perlin "$base/band$band.v" 4800 3200 --cell-size $((90 + band * 60)) --seed "$band"
done
vips bandjoin "$base/band1.v $base/band2.v $base/band3.v" "$base/noise.v"
vips linear "$base/noise.v" "$base/base.v" 110 128 --uchar
seq 1 "$N" | xargs -P 2 -I{} bash -c '
  i={}; name=$(printf "photo-%03d.jpg" "$i")
  vips crop "$0/base.v" "$0/$i.v" $(( (i * 97) % 2400 )) $(( (i * 61) % 1600 )) 2400 1600
  vips linear "$0/$i.v" "$1/$name[Q=90]" "$(( 80 + i % 40 ))e-2 1 $(( 120 - i % 40 ))e-2" "$(( i % 30 )) 0 $(( 30 - i % 30 ))" --uchar
  rm "$0/$i.v"' "$base" "$DIR"
