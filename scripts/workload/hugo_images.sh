#!/usr/bin/env bash
# hugo_images.sh DIR -- the Hugo reference for the image stage: a site whose home page makes, for
# every JPEG in DIR, the renditions Marquee makes (cell squares of 100 and 200 px, detail widths of
# 680 and 1360 px) as WebP and JPEG. Hugo 0.111 cannot write AVIF, so it makes 8 files per photo
# where Marquee makes 12. Prints `hugo_images_s=SECONDS` for one build with Hugo's image cache
# (resources/_gen) empty. Work dir: $BENCH_DIR/hugo-images.
set -euo pipefail
DIR=${1:?usage: hugo_images.sh DIR}
S=${BENCH_DIR:-/tmp/bench}/hugo-images
rm -rf "$S" && mkdir -p "$S/assets/photos" "$S/layouts" "$S/content"
cp "$DIR"/*.jpg "$S/assets/photos/"
cat > "$S/hugo.toml" <<'TOML'
baseURL = "https://example.org/"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404", "section"]
[imaging]
  quality = 80
TOML
cat > "$S/layouts/index.html" <<'HTML'
{{ range resources.Match "photos/*.jpg" }}
<img src="{{ (.Fill "100x100 Center webp q75").RelPermalink }}"><img src="{{ (.Fill "200x200 Center webp q75").RelPermalink }}">
<img src="{{ (.Resize "680x webp q75").RelPermalink }}"><img src="{{ (.Resize "1360x webp q75").RelPermalink }}">
<img src="{{ (.Fill "100x100 Center jpg q80").RelPermalink }}"><img src="{{ (.Fill "200x200 Center jpg q80").RelPermalink }}">
<img src="{{ (.Resize "680x jpg q80").RelPermalink }}"><img src="{{ (.Resize "1360x jpg q80").RelPermalink }}">
{{ end }}
HTML
cd "$S"
start=$EPOCHREALTIME
hugo --quiet
end=$EPOCHREALTIME
echo "renditions=$(find public -name '*.webp' -o -name '*.jpg' | wc -l)"
echo "hugo_images_s=$(awk "BEGIN { print $end - $start }")"
