#!/usr/bin/env bash
# Benchmarks bgkb against Hugo and the cmark parsing floor, on one machine, in one run.
#
#   .ci/bench/run.sh [SIZE...]        default sizes: 1000 2000 10000 (rules)
#
# Environment: RUNS (timed runs per command, default 5), SEED (generator seed, default 1),
# BENCH_DIR (work directory, default .build/bench), LOADS (in-process loads of the real Content,
# default 51), SKIP_BUILD=1 (reuse the release binaries already built).
#
# For each size it generates the same rules as bgkb Content and as Hugo pages
# (.ci/bench/generate_corpus.py), then times, with hyperfine, the median of RUNS runs of:
#   bgkb     `bgkb build` in release (or `bgkb lint` while `build` does not exist yet: said so)
#   hugo     Debian's hugo on the same pages, minimal layouts (one page per rule and an index)
#   cmark    the cmark tool parsing (and rendering) the same Markdown files: the floor
# and the peak memory of each (GNU time's maximum resident set size), then the ratios.
# It also times `bgkb check` (examples per second) and the first quiz question when those
# commands exist, and the in-process load of the real Content/ (issue 2: well under 100 ms).
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
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  echo "== swift build -c release (bgkb, BenchContent)"
  swift build -c release --product bgkb 2>&1 | tail -1
  swift build -c release --product BenchContent 2>&1 | tail -1
fi
BIN=$(swift build -c release --show-bin-path)
BGKB=$BIN/bgkb

# A subcommand exists when `bgkb --help` lists it (ArgumentParser prints the root help, exit 0,
# for an unknown one).
has() { "$BGKB" --help 2>&1 | grep -qE "^  $1( |$)"; }
if has build; then MODE=build; else MODE=lint; fi

echo "== machine: $(nproc) cores, $(uname -srm); hugo $(hugo version | awk '{print $2}'), cmark $(cmark --version | head -1 | awk '{print $2}'), $(hyperfine --version)"
echo "== load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine inflates every figure alike)"
[ "$MODE" = build ] || echo "== NOTE: bgkb has no 'build' command yet: timing 'bgkb lint' (parse + check Content) instead"

# Median in seconds of a hyperfine JSON export.
median() { python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$1"; }
# Peak resident memory in MB of one run of a command.
peak() { /usr/bin/time -f %M -o "$BENCH_DIR/peak.txt" "$@" >/dev/null 2>&1 || true; awk '{printf "%.1f", $1/1024}' "$BENCH_DIR/peak.txt"; }
ratio() { python3 -c 'import sys; print("%.2f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }
timeit() { # name json command...
  local json=$1; shift
  if ! hyperfine --style none --warmup 1 --runs "$RUNS" --export-json "$json" "$@" >"$BENCH_DIR/hyperfine.log" 2>&1; then
    echo "!! hyperfine failed: $*" >&2; cat "$BENCH_DIR/hyperfine.log" >&2; exit 1
  fi
}

TABLE=$BENCH_DIR/table.md
{
  echo "| rules | Markdown | bgkb $MODE | peak | hugo | peak | cmark | peak | bgkb/hugo | bgkb/cmark | bgkb per 1k rules |"
  echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
} > "$TABLE"
EXTRA=$BENCH_DIR/extra.txt
: > "$EXTRA"

for size in "${SIZES[@]}"; do
  dir=$BENCH_DIR/$size
  echo "== $size rules: generating"
  python3 .ci/bench/generate_corpus.py "$dir" --rules "$size" --seed "$SEED"
  content=$dir/content
  mb=$(du -cb "$content"/documents/*.md | tail -1 | awk '{printf "%.1f MB", $1/1048576}')

  if [ "$MODE" = build ]; then
    bgkb_cmd="$BGKB build --content $content --output $dir/site"
  else
    bgkb_cmd="$BGKB lint --content $content"
  fi
  echo "== $size rules: timing bgkb $MODE, hugo, cmark ($RUNS runs each)"
  timeit "$dir/bgkb.json" "$bgkb_cmd"
  timeit "$dir/hugo.json" --prepare "rm -rf $dir/hugo-public" "hugo --quiet -s $dir/hugo -d $dir/hugo-public"
  timeit "$dir/cmark.json" "cmark $content/documents/*.md"
  b=$(median "$dir/bgkb.json"); h=$(median "$dir/hugo.json"); c=$(median "$dir/cmark.json")
  bm=$(peak $bgkb_cmd)
  rm -rf "$dir/hugo-public"; hm=$(peak hugo --quiet -s "$dir/hugo" -d "$dir/hugo-public")
  cm=$(peak sh -c "cmark $content/documents/*.md")
  per=$(python3 -c 'import sys; print("%.3f s" % (float(sys.argv[1]) * 1000 / int(sys.argv[2])))' "$b" "$size")
  echo "| $size | $mb | ${b} s | ${bm} MB | ${h} s | ${hm} MB | ${c} s | ${cm} MB | $(ratio "$b" "$h") | $(ratio "$b" "$c") | $per |" >> "$TABLE"

  if [ "$MODE" = build ] && "$BGKB" build --help 2>&1 | grep -q -- --timings; then
    echo "-- bgkb build --timings, $size rules:" >> "$EXTRA"
    "$BGKB" build --timings --content "$content" --output "$dir/site" 2>&1 | tail -n 20 >> "$EXTRA" || true
  fi
  if has check; then
    timeit "$dir/check.json" "$BGKB check --content $content"
    k=$(median "$dir/check.json")
    examples=$("$BGKB" lint --content "$content" 2>&1 | tail -1 | grep -o '[0-9]* examples' | awk '{print $1}')
    echo "-- bgkb check, $size rules: ${examples:-?} examples in $k s median ($(python3 -c 'import sys; print("%.0f" % (int(sys.argv[1] or 0) / float(sys.argv[2])))' "${examples:-0}" "$k") examples/s), peak $(peak "$BGKB" check --content "$content") MB" >> "$EXTRA"
  fi
  if has quiz; then
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
"$BIN/BenchContent" "$ROOT/Content" "$LOADS"
