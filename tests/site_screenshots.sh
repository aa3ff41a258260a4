#!/usr/bin/env bash
# site_screenshots.sh PERFCAST CHECKER OUTDIR — `make screenshots`.
#
# Builds the embedded site into OUTDIR/site and, with headless Chromium,
# for the index, a campaign page with charts, a cluster page, the advice
# page and the alerts page, at 1280 px and 390 px wide, light and dark
# (prefers-color-scheme, through --force-dark-mode):
#   - takes a screenshot and checks it with CHECKER
#     (tests/site_screenshot_check.c): a real, non-blank picture, light or
#     dark as asked;
#   - checks that the page does not overflow horizontally: a harness page
#     (OUTDIR/overflow.html, the only script involved; the site has none)
#     loads each page in an iframe of that width and compares the page's
#     scrollWidth with its clientWidth.
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
out=$(cd "$out" && pwd)
"$perfcast" build --archive archive --out "$out/site" --quiet
site="$out/site"
first() { for f in "$@"; do [ -f "$f" ] && { printf '%s\n' "${f#"$site"/}"; return; }; done; }
campaign=$(first $(grep -l '<img' "$site"/campaigns/*/index.html))
cluster=$(first $(grep -l '<img' "$site"/clusters/*/index.html))
[ -n "$campaign" ] && [ -n "$cluster" ] || { echo "screenshots: no campaign or cluster page with charts" >&2; exit 1; }
pages="index.html $campaign $cluster advice/index.html alerts.html"
chrome() { timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "$@" 2>/dev/null; }

status=0
for page in $pages; do
    for width in 1280 390; do
        for scheme in light dark; do
            shot="$out/$(printf '%s' "$page" | tr '/' '-')-$width-$scheme.png"
            rm -f "$shot"
            dark=; [ "$scheme" = dark ] && dark=--force-dark-mode
            chrome $dark --window-size="$width,2000" --screenshot="$shot" "file://$site/$page" >/dev/null || true
            "$check" "--$scheme" "$shot" || status=1
        done
    done
done

# One Chromium run measures every page at both widths.
{
    echo '<!DOCTYPE html><html><head><meta charset="utf-8"><title>overflow</title></head><body>'
    for page in $pages; do
        for width in 1280 390; do
            echo "<iframe data-page=\"$page\" data-width=\"$width\" src=\"file://$site/$page\" style=\"width:${width}px;height:600px;border:0\"></iframe>"
        done
    done
    cat <<'JS'
<script>
window.onload = function () {
  var lines = [];
  document.querySelectorAll('iframe').forEach(function (f) {
    var d = f.contentDocument.documentElement;
    lines.push(f.dataset.page + ' at ' + f.dataset.width + ' px: ' +
               (d.scrollWidth > d.clientWidth ? 'OVERFLOW ' + d.scrollWidth + ' > ' + d.clientWidth : 'fits'));
  });
  var pre = document.createElement('pre');
  pre.id = 'result';
  pre.textContent = lines.join('\n');
  document.body.appendChild(pre);
};
</script></body></html>
JS
} >"$out/overflow.html"
result=$(chrome --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom "file://$out/overflow.html" |
         sed -n '/<pre id="result">/,/<\/pre>/p' | sed 's/<[^>]*>//g')
n=$(printf '%s\n' "$result" | grep -c ' px: ' || true)
printf '%s\n' "$result"
if [ "$n" -ne $(( $(echo $pages | wc -w) * 2 )) ]; then
    echo "screenshots: the overflow check measured $n of the pages" >&2; status=1
fi
if printf '%s\n' "$result" | grep -q OVERFLOW; then status=1; fi
exit $status
