#!/bin/sh
# Renders the web app's PNG icons from public/favicon.svg's drawing with
# headless Chromium (CHROMIUM, default chromium): 192 and 512 px with the
# favicon's rounded square, and a 512 px maskable one whose background fills
# the square and whose line stays inside the central safe zone (80%).
# Run from web/: sh scripts/icons.sh
set -eu
chromium=${CHROMIUM:-chromium}
out=public/icons
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
line='<path d="M6 22 L13 10 L17 17 L21 12 L26 22" fill="none" stroke="#3b82f6" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>'
page() { # size, svg body
  printf '<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>' > "$tmp/p.html"
  printf '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="%s" height="%s">%s</svg>' "$1" "$1" "$2" >> "$tmp/p.html"
}
shot() { # size, file
  "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update \
    --disable-sync --hide-scrollbars --force-device-scale-factor=1 --default-background-color=00000000 \
    --window-size="$1,$1" --screenshot="$2" "file://$tmp/p.html" >/dev/null 2>&1
}
for s in 192 512; do
  page "$s" "<rect width=\"32\" height=\"32\" rx=\"6\" fill=\"#0f172a\"/>$line"
  shot "$s" "$out/icon-$s.png"
done
page 512 "<rect width=\"32\" height=\"32\" fill=\"#0f172a\"/><g transform=\"translate(16 16) scale(0.72) translate(-16 -16)\">$line</g>"
shot 512 "$out/maskable-512.png"
ls -l "$out"
