#!/usr/bin/env bash
# site_screenshots.sh PERFCAST CHECKER OUTDIR — `make screenshots`.
#
# Builds the embedded site into OUTDIR/site and, with headless Chromium:
#   - for the index, a campaign page with charts, a cluster page, the advice
#     page and the alerts page, at 1280 px and 390 px wide, light and dark
#     (prefers-color-scheme, through --force-dark-mode), takes a screenshot
#     and checks it with CHECKER (tests/site_screenshot_check.c): a real,
#     non-blank picture, light or dark as asked;
#   - measures EVERY page of the site at 1280 px and 390 px: a harness page
#     (OUTDIR/measure.html, the only script involved; the site has none)
#     loads each page in an iframe of that width and, for every table cell,
#     compares its box with its table's container (div.table) and the
#     viewport: a cell whose right or left edge lies outside either, whose
#     content is wider than the cell, or that is hidden (no box; only an
#     empty cell, or a header row hidden on purpose when the rows are
#     stacked and each cell says its column, may be) is clipped. It also fails when the page
#     overflows horizontally or when campaigns/scopred-ep is taller than
#     10,000 px at 1280 px (issue 24). The harness first measures a small
#     hand-made page with a clipped cell and fails unless it is caught, so
#     the check can fail.
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

# The self-test page: a table wider than its box at 390 px, its cell kept
# on one line, as the site's tables were before issue 24.
cat >"$out/clipped.html" <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>clipped</title></head><body>
<div class="table" style="overflow-x:auto"><table><tbody><tr>
<td style="white-space:nowrap">a cell far too long to fit in three hundred and ninety pixels on one line</td>
</tr></tbody></table></div></body></html>
HTML

# One Chromium run measures every page at both widths.
all_pages=$(cd "$site" && find . -name '*.html' | sed 's|^\./||' | LC_ALL=C sort)
{
    echo '<!DOCTYPE html><html><head><meta charset="utf-8"><title>measure</title></head><body>'
    echo "<iframe data-page=\"self-test\" data-width=\"390\" src=\"file://$out/clipped.html\" style=\"width:390px;height:300px;border:0\"></iframe>"
    for width in 1280 390; do
        for page in $all_pages; do
            echo "<iframe data-page=\"$page\" data-width=\"$width\" src=\"file://$site/$page\" style=\"width:${width}px;height:800px;border:0\"></iframe>"
        done
    done
    cat <<'JS'
<script>
/* The clipped cells of one loaded page, as lines of text. */
function clippedCells(doc, stats) {
  var bad = [], win = doc.defaultView, vw = doc.documentElement.clientWidth;
  doc.querySelectorAll('table').forEach(function (table) {
    var box = table.closest('div.table') || table.parentElement;
    var b = box.getBoundingClientRect();
    table.querySelectorAll('th, td').forEach(function (cell) {
      stats.cells++;
      var r = cell.getBoundingClientRect();
      var text = cell.textContent.trim().slice(0, 40);
      var head = cell.closest('thead');
      if (r.width === 0 && r.height === 0) {
        /* A header row hidden on purpose: every body cell says its column. */
        var heads = head ? head.rows[0].cells : [];
        var labelled = Array.prototype.every.call(table.querySelectorAll('tbody th, tbody td'),
          function (c) { var h = heads[c.cellIndex];
                         return c.hasAttribute('data-label') || !h || h.textContent.trim() === ''; });
        if (text === '' || head && win.getComputedStyle(head).display === 'none' && labelled) {
          stats.hidden++;
          return;
        }
        bad.push('hidden cell "' + text + '"');
        return;
      }
      var why = [];
      if (r.right > b.right + 0.5) why.push('right edge ' + Math.round(r.right) + ' > container ' + Math.round(b.right));
      if (r.left < b.left - 0.5) why.push('left edge ' + Math.round(r.left) + ' < container ' + Math.round(b.left));
      if (r.right > vw + 0.5) why.push('right edge ' + Math.round(r.right) + ' > viewport ' + vw);
      if (cell.scrollWidth > cell.clientWidth + 1) why.push('content ' + cell.scrollWidth + ' px in ' + cell.clientWidth + ' px');
      if (win.getComputedStyle(cell).visibility === 'hidden') why.push('invisible');
      if (why.length) bad.push('"' + text + '": ' + why.join(', '));
    });
  });
  return bad;
}
window.onload = function () {
  var lines = [], stats = {cells: 0, hidden: 0};
  document.querySelectorAll('iframe').forEach(function (f) {
    var d = f.contentDocument.documentElement;
    var page = f.dataset.page, width = f.dataset.width;
    var own = {cells: 0, hidden: 0};
    var bad = clippedCells(f.contentDocument, own);
    if (page === 'self-test') {
      lines.push('self-test at ' + width + ' px: ' + (bad.length ? 'caught ' + bad.length : 'MISSED'));
      return;
    }
    stats.cells += own.cells; stats.hidden += own.hidden;
    var verdict = d.scrollWidth > d.clientWidth ? 'OVERFLOW ' + d.scrollWidth + ' > ' + d.clientWidth
                : bad.length ? 'CLIPPED ' + bad.length : 'fits';
    lines.push(page + ' at ' + width + ' px: ' + verdict + ', ' + own.cells + ' cells, height ' + d.scrollHeight);
    bad.forEach(function (b) { lines.push('  ' + b); });
  });
  lines.push('cells ' + stats.cells + ' hidden-empty-or-stacked-header ' + stats.hidden);
  var pre = document.createElement('pre');
  pre.id = 'result';
  pre.textContent = lines.join('\n');
  document.body.appendChild(pre);
};
</script></body></html>
JS
} >"$out/measure.html"
result=$(chrome --allow-file-access-from-files --virtual-time-budget=30000 --dump-dom "file://$out/measure.html" |
         sed -n '/<pre id="result">/,/<\/pre>/p' | sed 's/<[^>]*>//g' |
         sed 's/&quot;/"/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g')
printf '%s\n' "$result" >"$out/measure.txt"
npages=$(printf '%s\n' "$all_pages" | wc -l)
n=$(printf '%s\n' "$result" | grep -c '^[^ ].* px: ' | tr -d ' ' || true)
n=$((n - $(printf '%s\n' "$result" | grep -c '^self-test' || true)))
printf '%s\n' "$result" | grep -v ': fits, ' || true
if [ "$n" -ne $((npages * 2)) ]; then
    echo "screenshots: the measurement covered $n of $((npages * 2)) page widths" >&2; status=1
fi
if ! printf '%s\n' "$result" | grep -q '^self-test at 390 px: caught'; then
    echo "screenshots: the self-test's clipped cell was not caught: the check cannot fail" >&2; status=1
fi
clipped=$(printf '%s\n' "$result" | grep -c '^[^ ].* px: \(CLIPPED\|OVERFLOW\)' || true)
cells=$(printf '%s\n' "$result" | sed -n 's/^cells \([0-9]*\) .*/\1/p')
[ "$clipped" -eq 0 ] || status=1
ep=$(printf '%s\n' "$result" | sed -n 's|^campaigns/scopred-ep/index.html at 1280 px: .*height \([0-9]*\)$|\1|p')
if [ -z "$ep" ] || [ "$ep" -gt 10000 ]; then
    echo "screenshots: campaigns/scopred-ep/index.html is ${ep:-not measured} px tall at 1280 px (at most 10000)" >&2
    status=1
fi
echo "screenshots: $npages pages x 2 widths, ${cells:-0} cells checked, $clipped pages with clipped cells; scopred-ep ${ep:-?} px at 1280 px"
exit $status
