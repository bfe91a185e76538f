#!/usr/bin/env bash
# Benchmarks `bgkb build` (release): wall time and peak memory for the real Content and for
# generated corpora of 2,000 and 10,000 rules. The generated Content is plain forum-style Markdown
# (one point a paragraph, with code spans, numbers, crash codes and a revision history), so the
# whole pipeline runs: load and lint, run examples, render, write and swap.
#
#   .ci/site-bench.sh [RULE_COUNTS...]        default: 2000 10000
set -euo pipefail
cd "$(dirname "$0")/.."
counts=("${@:-2000}")
[ $# -eq 0 ] && counts=(2000 10000)

swift build -c release --product bgkb >/dev/null
bin="$(swift build -c release --show-bin-path)/bgkb"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

generate() { # generate N DIR
  python3 - "$1" "$2" <<'PY'
import os, sys
n, root = int(sys.argv[1]), sys.argv[2]
os.makedirs(os.path.join(root, "documents"), exist_ok=True)
open(os.path.join(root, "sources.yml"), "w").write(
    "- id: bench-source\n  title: Generated source\n  reliability: primary\n  summary: Generated for the benchmark.\n")
open(os.path.join(root, "topics.yml"), "w").write(
    "- id: budgets\n  title: Budgets\n  summary: Time.\n  keywords: [seconds]\n"
    "- id: ending\n  title: Ending\n  summary: Ends.\n  keywords: [endBackgroundTask]\n")
words = ["assertion", "budget", "handler", "identifier", "queue", "thread", "request", "refresh", "watchdog", "suspension"]
apis = ["UIApplication.beginBackgroundTask(withName:expirationHandler:)", "UIApplication.endBackgroundTask(_:)",
        "BGTaskScheduler.submit(_:)", "ProcessInfo.performExpiringActivity(withReason:using:)"]
per_doc = 100
for d in range((n + per_doc - 1) // per_doc):
    lines = ["---", "title: Generated notes %d" % d, "source: bench-source", "---", "", "# Generated notes %d" % d, ""]
    for i in range(min(per_doc, n - d * per_doc)):
        k = d * per_doc + i
        w = words[k % len(words)]
        lines.append("Point %d of document %d: you must end the %s task %d with `%s`, or the watchdog kills the app with "
                     "0x8badf00d after about %d seconds. The %s is shared by %s and %s, so keep it in one place and "
                     "end it exactly once, from either path." % (k, d, w, k, apis[k % len(apis)], 5 + k % 50,
                                                                  w, words[(k + 3) % 10], words[(k + 7) % 10]))
        lines.append("")
    lines += ["Share and Enjoy", "", "Revision History", "",
              "2023-06-16 Reworded several points.", "2021-02-27 Added points.", "2017-08-17 First posted.", ""]
    open(os.path.join(root, "documents", "notes-%03d.md" % d), "w").write("\n".join(lines))
PY
}

measure() { # measure LABEL CONTENT_DIR
  local out="$work/out-$1"
  local log="$work/time-$1"
  /usr/bin/time -v "$bin" build --content "$2" --output "$out/Site" >"$work/stdout-$1" 2>"$log" || { cat "$log"; exit 1; }
  local wall rss files
  wall="$(grep 'Elapsed (wall clock)' "$log" | awk '{print $NF}')"
  rss="$(grep 'Maximum resident set size' "$log" | awk '{print $NF}')"
  files="$(find "$out/Site" -type f | wc -l)"
  printf '%-22s %8s rules  %7s files  wall %9s  peak RSS %6d MB  (%s)\n' "$1" "$3" "$files" "$wall" "$((rss / 1024))" "$(tail -1 "$work/stdout-$1")"
}

rules_in() { "$bin" list --content "$1" 2>/dev/null | wc -l; }

echo "bgkb build, release, $(nproc) cores"
measure "real Content" Content "$(rules_in Content)"
for n in "${counts[@]}"; do
  generate "$n" "$work/gen-$n"
  measure "generated $n" "$work/gen-$n" "$(rules_in "$work/gen-$n")"
done
