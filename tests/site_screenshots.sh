#!/usr/bin/env bash
# site_screenshots.sh PERFCAST CHECKER OUTDIR — `make screenshots`.
#
# Builds the embedded site into OUTDIR/site, takes headless Chromium
# screenshots of the index and of the first campaign page with charts (at a
# desktop and at a phone width), and checks each with CHECKER
# (tests/site_screenshot_check.c) to be a real, non-blank picture.
# Installs the Debian package chromium when it is missing and we are root.
set -eu
perfcast=$1 check=$2 out=$3

if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "screenshots: installing chromium" >&2
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >/dev/null
    else
        echo "screenshots: chromium is missing: sudo apt-get install chromium" >&2
        exit 1
    fi
fi

mkdir -p "$out"
"$perfcast" build --archive archive --out "$out/site" --quiet
site=$(cd "$out/site" && pwd)
campaign=$(grep -l '<img' "$site"/campaigns/*/index.html | head -n 1)
[ -n "$campaign" ] || { echo "screenshots: no campaign page with charts" >&2; exit 1; }
campaign=${campaign#"$site"/}

status=0
for page in index.html "$campaign"; do
    for size in 1280,2000 390,1600; do
        shot="$out/$(printf '%s' "$page" | tr '/' '-')-${size%,*}.png"
        rm -f "$shot"
        timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
            --window-size="$size" --screenshot="$shot" "file://$site/$page" >/dev/null 2>&1 || true
        "$check" "$shot" || status=1
    done
done
exit $status
