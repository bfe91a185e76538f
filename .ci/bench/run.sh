#!/usr/bin/env bash
# Benchmarks bgkb against Hugo and the cmark parsing floor, on one machine, in one run.
#
#   .ci/bench/run.sh [SIZE...]        default sizes: 1000 2000 10000 (rules)
#
# Environment: RUNS (timed runs per command, default 5), SEED (generator seed, default 1),
# BENCH_DIR (work directory, default .build/bench), LOADS (in-process loads of the real Content,
# default 51), SKIP_BUILD=1 (reuse the release binaries already built), BIN_DIR (take bgkb and
# BenchContent from there instead).
#
# For each size it generates the same rules as bgkb Content and as Hugo pages
# (.ci/bench/generate_corpus.py), then times, with hyperfine, the median of RUNS runs of:
#   bgkb first build   `bgkb build` in release into an empty folder with no verdict cache
#   bgkb rebuild       the same build again, Content unchanged (cached verdicts, linked files)
#   hugo, hugo rebuild Debian's hugo on the same pages (minimal layouts: one page per rule and
#                      an index), into an empty folder and over its previous output
#   cmark              the cmark tool parsing (and rendering) the same Markdown files: the floor
# and the peak memory of each (GNU time's maximum resident set size), then hugo/bgkb (above 1:
# bgkb is faster). It also times `bgkb check` (examples per second) at the smallest size and the
# first quiz question (`bgkb quiz --content`, which builds its question bank from the corpus) at
# every size, prints `bgkb build --timings` of both kinds of build for each size with
# the steps other than examples against the cmark floor (the median over as many builds as the
# timed runs, with its range, and paired with a cmark run after each build), the two first builds again in
# back-to-back pairs (.ci/bench/paired.py: the median of the pairs' hugo/bgkb, steadier than the
# table's ratio of medians), and the in-process load of the real Content/ (issue 2: well under
# 100 ms). Above 2,000 rules it times fewer runs (RUNS*2000/size, at least 3, no warm-up): a
# first build explores every example.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1000 2000 10000)
RUNS=${RUNS:-5}
SEED=${SEED:-1}
LOADS=${LOADS:-51}
BENCH_DIR=${BENCH_DIR:-$ROOT/.build/bench}
mkdir -p "$BENCH_DIR"

# --- Tools -------------------------------------------------------------------------------------
need=()
command -v hugo >/dev/null 2>&1 || need+=(hugo)
command -v cmark >/dev/null 2>&1 || need+=(cmark)
command -v hyperfine >/dev/null 2>&1 || need+=(hyperfine)
[ -x /usr/bin/time ] || need+=(time)
pkg-config --exists libcmark 2>/dev/null || need+=(libcmark-dev)
# bgkb links tcmalloc on Linux (Package.swift).
pkg-config --exists libtcmalloc_minimal 2>/dev/null || need+=(libgoogle-perftools-dev)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The release binary as the README says to build it (.ci/bench/release-flags.sh): on Linux with the
# Swift runtime and Foundation linked in.
read -r -a RELEASE <<<"$(.ci/bench/release-flags.sh)"
if [ -n "${BIN_DIR:-}" ]; then
  BIN=$BIN_DIR     # binaries built (and copied) beforehand, so the tree can change during the run
else
  # BenchContent is in the benchmark package (Benchmarks/), which depends on bgkb's by path.
  if [ "${SKIP_BUILD:-0}" != 1 ]; then
    echo "== swift build ${RELEASE[*]} (bgkb; BenchContent in Benchmarks/)"
    swift build "${RELEASE[@]}" --product bgkb 2>&1 | tail -1
    swift build --package-path Benchmarks "${RELEASE[@]}" --product BenchContent 2>&1 | tail -1
  fi
  BIN=$(swift build "${RELEASE[@]}" --show-bin-path)
  BENCH_BIN=$(swift build --package-path Benchmarks "${RELEASE[@]}" --show-bin-path)
fi
BENCH_BIN=${BENCH_BIN:-$BIN}
BGKB=$BIN/bgkb

# A subcommand exists when `bgkb --help` lists it (ArgumentParser prints the root help, exit 0,
# for an unknown one).
has() { "$BGKB" --help 2>&1 | grep -qE "^  $1( |$)"; }
has build || { echo "bgkb has no build command" >&2; exit 1; }

echo "== machine: $(nproc) cores, $(uname -srm); hugo $(hugo version | awk '{print $2}'), cmark $(cmark --version | head -1 | awk '{print $2}'), $(hyperfine --version)"
echo "== load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine inflates every figure alike)"
# A first build (bgkb's or Hugo's) creates thousands of files right after `--prepare` deleted as
# many. On a disk that is the kernel's work as much as the tool's: on the latest benchmark
# machine's ext4, which has no journal, each new inode is searched for past every inode deleted
# recently (Linux's `find_inode_bit` then skips each one `recently_deleted` says was freed in the
# last 60 s, or 360 s while its inode table block is not yet written back), and a 2,000-rule
# first build spent 0.6-1.2 s in the kernel against 0.1 s on tmpfs. RESULTS.md's figures are on tmpfs.
fs=$(df --output=fstype "$BENCH_DIR" 2>/dev/null | tail -1 | tr -d " ")
[ -n "$fs" ] || fs=unknown
if [ "$fs" != tmpfs ] && [ "$fs" != ramfs ]; then
  echo "== note: BENCH_DIR ($BENCH_DIR) is on $fs, not tmpfs: first builds also time the file system's file creation (BENCH_DIR=/dev/shm/bench for RESULTS.md's setting)"
fi

# Median in seconds of a hyperfine JSON export.
median() { python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$1"; }
# Mean CPU seconds (user + system) of a hyperfine JSON export: steadier than wall time on a busy
# machine, and above the wall time when both cores work.
cpu() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.2f" % (r["user"] + r["system"]))' "$1"; }
# Peak resident memory in MB of one run of a command.
peak() { /usr/bin/time -f %M -o "$BENCH_DIR/peak.txt" "$@" >/dev/null 2>&1 || true; awk '{printf "%.1f", $1/1024}' "$BENCH_DIR/peak.txt"; }
ratio() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }
# Runs per size: RUNS up to 2,000 rules; fewer above, where one build runs tens of thousands of
# examples: at least 3 (so the median is one run's time, not the mean of two), no warm-up.
runs_for() { if [ "$1" -le 2000 ]; then echo "$RUNS 1"; else echo "$(( RUNS * 2000 / $1 > 3 ? RUNS * 2000 / $1 : 3 )) 0"; fi; }
timeit() { # json command...
  local json=$1; shift
  read -r n warm <<<"$(runs_for "$size")"
  if ! hyperfine --style none --warmup "$warm" --runs "$n" --export-json "$json" "$@" >"$BENCH_DIR/hyperfine.log" 2>&1; then
    echo "!! hyperfine failed: $*" >&2; cat "$BENCH_DIR/hyperfine.log" >&2; exit 1
  fi
}

TABLE=$BENCH_DIR/table.md
{
  echo "| rules | Markdown | bgkb first build | CPU | peak | bgkb rebuild | CPU | peak | hugo | CPU | peak | hugo rebuild | cmark | peak | hugo/bgkb first | hugo rebuild/bgkb rebuild | bgkb first per 1k rules |"
  echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
} > "$TABLE"
EXTRA=$BENCH_DIR/extra.txt
: > "$EXTRA"

# The wall time of everything but the examples in `bgkb build --timings` (the whole build, from
# its "wrote ... in" line, less the example step; summing the steps would count twice the pages
# made alongside the rule pages), against the cmark floor: the median over several builds (one
# build's figure moved by a tenth from run to run), with their range; and paired, each build's
# figure over a cmark run timed right after it (the median of those ratios), which the machine's
# drift between the table's cmark runs and these builds cannot move (the same binary's figure
# at 2,000 rules was 0.144 s one minute and 0.176 s a few minutes later). Prints the figure line
# and, on a second line, the file of the median build (whose step table is shown).
other_steps() { # cmark-seconds timings.txt:paired-cmark-seconds...
  python3 - "$@" <<'PY'
import re, statistics, sys
floor, pairs = float(sys.argv[1]), [a.rsplit(":", 1) for a in sys.argv[2:]]
runs = []
for path, paired in pairs:
    total = examples = None
    for line in open(path):
        m = re.match(r"^wrote .* in ([0-9.]+) ms", line.strip())
        if m: total = float(m.group(1)) / 1000
        m = re.match(r"^run [0-9]+ examples\s+([0-9.]+) (ms|s)\b", line.strip())
        if m: examples = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
    if total is not None and examples is not None:
        runs.append((total - examples, path, (total - examples) / float(paired)))
if not runs:
    print("steps other than examples: ? (no timings)")
    print(pairs[0][0])
else:
    runs.sort()
    other = statistics.median(r[0] for r in runs)
    ratios = sorted(r[2] for r in runs)
    print("steps other than examples: %.3f s = %.1f x the cmark floor (%s s); median of %d builds, %.3f-%.3f s; paired with a cmark run each, %.1f x (%.1f-%.1f)"
          % (other, other / floor, sys.argv[1], len(runs), runs[0][0], runs[-1][0], statistics.median(ratios), ratios[0], ratios[-1]))
    print(runs[(len(runs) - 1) // 2][1])
PY
}

for size in "${SIZES[@]}"; do
  dir=$BENCH_DIR/$size
  echo "== $size rules: generating"
  python3 .ci/bench/generate_corpus.py "$dir" --rules "$size" --seed "$SEED"
  content=$dir/content
  mb=$(du -cb "$content"/documents/*.md | tail -1 | awk '{printf "%.1f MB", $1/1048576}')
  site=$dir/site
  build="$BGKB build --content $content --output $site"
  # A first build starts from nothing: no site to reuse files from, no verdicts of an earlier
  # build (the folder and the cache are removed before each run, outside the timing). A rebuild
  # is the same command again with Content unchanged: it reuses the cached verdicts (replaying
  # only the runs the pages draw) and links unchanged files from the site it replaces. Hugo is
  # timed both ways too: from an empty output folder, and over the one it wrote before.
  echo "== $size rules: timing bgkb (first build, rebuild), hugo (same two), cmark ($RUNS runs each)"
  timeit "$dir/bgkb-first.json" --prepare "rm -rf $site $dir/.site.verdicts" "$build"
  $build > /dev/null
  timeit "$dir/bgkb-rebuild.json" "$build"
  timeit "$dir/hugo.json" --prepare "rm -rf $dir/hugo-public" "hugo --quiet -s $dir/hugo -d $dir/hugo-public"
  timeit "$dir/hugo-rebuild.json" "hugo --quiet -s $dir/hugo -d $dir/hugo-public"
  timeit "$dir/cmark.json" "cmark $content/documents/*.md"
  bf=$(median "$dir/bgkb-first.json"); br=$(median "$dir/bgkb-rebuild.json")
  h=$(median "$dir/hugo.json"); hr=$(median "$dir/hugo-rebuild.json"); c=$(median "$dir/cmark.json")

  # The bgkb builds again with --timings (as many of each as the timed runs), which also give
  # their peak memory (the largest of the runs).
  read -r n _ <<<"$(runs_for "$size")"
  bfm=0; brm=0
  rm -f "$dir"/timings-*.txt
  # Each build is followed by three cmark runs (their median pairs with it).
  cmark_now() {
    hyperfine --style none --runs 3 --export-json "$BENCH_DIR/cmark-pair.json" "cmark $content/documents/*.md" >/dev/null 2>&1
    median "$BENCH_DIR/cmark-pair.json"
  }
  first_pairs=(); rebuild_pairs=()
  for i in $(seq "$n"); do
    rm -rf "$site" "$dir/.site.verdicts"
    /usr/bin/time -f %M -o "$BENCH_DIR/peak.txt" $build --timings > "$dir/timings-first-$i.txt" 2>&1 || true
    first_pairs+=("$dir/timings-first-$i.txt:$(cmark_now)")
    bfm=$(awk -v m="$bfm" '{v = $1/1024; printf "%.1f", (v > m ? v : m)}' "$BENCH_DIR/peak.txt")
    /usr/bin/time -f %M -o "$BENCH_DIR/peak.txt" $build --timings > "$dir/timings-rebuild-$i.txt" 2>&1 || true
    rebuild_pairs+=("$dir/timings-rebuild-$i.txt:$(cmark_now)")
    brm=$(awk -v m="$brm" '{v = $1/1024; printf "%.1f", (v > m ? v : m)}' "$BENCH_DIR/peak.txt")
  done
  for kind in first rebuild; do
    if [ "$kind" = first ]; then pairs=("${first_pairs[@]}"); else pairs=("${rebuild_pairs[@]}"); fi
    summary=$(other_steps "$c" "${pairs[@]}")
    { echo "-- bgkb build --timings, $size rules, $kind (the build of median other steps):"
      sed 's/^/   /' "$(echo "$summary" | tail -1)"
      echo "   $(echo "$summary" | head -1)"; } >> "$EXTRA"
  done
  rm -rf "$dir/hugo-public"; hm=$(peak hugo --quiet -s "$dir/hugo" -d "$dir/hugo-public")
  cm=$(peak sh -c "cmark $content/documents/*.md")
  per=$(python3 -c 'import sys; print("%.3f s" % (float(sys.argv[1]) * 1000 / int(sys.argv[2])))' "$bf" "$size")
  echo "| $size | $mb | ${bf} s | $(cpu "$dir/bgkb-first.json") s | ${bfm} MB | ${br} s | $(cpu "$dir/bgkb-rebuild.json") s | ${brm} MB | ${h} s | $(cpu "$dir/hugo.json") s | ${hm} MB | ${hr} s | ${c} s | ${cm} MB | $(ratio "$h" "$bf") | $(ratio "$hr" "$br") | $per |" >> "$TABLE"

  # The table's ratio divides medians taken a minute or more apart, while Hugo's own time and
  # the machine's speed drift: the two first builds again, alternating, one ratio per pair.
  read -r n _ <<<"$(runs_for "$size")"
  echo "-- paired first builds, $size rules: $(python3 .ci/bench/paired.py --pairs "$n" \
    --hugo "hugo --quiet -s $dir/hugo -d $dir/hugo-public" --hugo-output "$dir/hugo-public" \
    --bgkb "$build" --bgkb-output "$site" "$dir/.site.verdicts")" >> "$EXTRA"

  if has check && [ "$size" = "${SIZES[0]}" ]; then
    # Once, at the smallest size: at larger sizes the build's example step gives the same figure.
    RUNS_SAVED=$RUNS; RUNS=1; timeit "$dir/check.json" "$BGKB check --content $content"; RUNS=$RUNS_SAVED
    k=$(median "$dir/check.json")
    examples=$("$BGKB" lint --content "$content" 2>&1 | tail -1 | grep -o '[0-9]* examples' | awk '{print $1}')
    echo "-- bgkb check, $size rules: ${examples:-?} examples in $k s median ($(python3 -c 'import sys; print("%.0f" % (int(sys.argv[1] or 0) / float(sys.argv[2])))' "${examples:-0}" "$k") examples/s), peak $(peak "$BGKB" check --content "$content") MB" >> "$EXTRA"
  fi
  if ! has check && [ "$size" = "${SIZES[0]}" ]; then
    # No `bgkb check` yet: run the engine in process over the same examples (smallest size only).
    echo "-- engine in process (BenchContent --check; no 'bgkb check' command yet), $size rules: $("$BENCH_BIN/BenchContent" --check "$content" 2>&1 | tail -1)" >> "$EXTRA"
  fi
  if has quiz; then
    # At every size: the bank is built from the whole corpus before the first question.
    q=$(python3 .ci/bench/first_question.py "$BGKB" "$content" 2>&1 || true)
    echo "-- bgkb quiz, $size rules: $q" >> "$EXTRA"
  fi
done

echo
echo "## Results (median of $RUNS runs; peak = maximum resident set size)"
echo
cat "$TABLE"
echo
[ -s "$EXTRA" ] && cat "$EXTRA" && echo
echo "-- real Content/, in process (BenchContent, release, $LOADS loads):"
"$BENCH_BIN/BenchContent" "$ROOT/Content" "$LOADS"
