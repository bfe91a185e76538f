#!/bin/sh
# Times `bgkb scan` on generated trees of 100,000 lines (issue 38: under 10 s on 2 cores):
# `typical` (a tenth of the lines in files that use the covered APIs, the rest skipped before
# parsing) and `worst` (every file uses them). Release build; prints wall and CPU time of 3 runs.
set -eu
cd "$(dirname "$0")/../.."
swift build -c release --product bgkb-scan >/dev/null
binary="$(swift build -c release --show-bin-path)/bgkb-scan"
work="${TMPDIR:-/tmp}/bgkb-scan-bench"
rm -rf "$work"
for kind in typical worst; do
  python3 .ci/bench/scan_tree.py "$kind" 100000 "$work/$kind"
  for run in 1 2 3; do
    /usr/bin/time -f "$kind run $run: %e s wall, %U s user, %S s system, %M KB" \
      "$binary" --format plain "$work/$kind" >/dev/null 2>"$work/$kind.err" || true
    tail -1 "$work/$kind.err"
  done
done
