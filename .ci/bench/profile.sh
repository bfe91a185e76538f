#!/usr/bin/env bash
# Counts instructions (valgrind's callgrind: repeatable even on a busy machine) for one run of a
# release command over a generated corpus, and prints the functions that cost the most.
#
#   .ci/bench/profile.sh [RULES] [-- bgkb arguments]     default: 200 rules, `lint`
#
# Valgrind 3.19 cannot read the DWARF 5 that Swift 6 emits, so it profiles a copy of the binary
# with the debug sections stripped (symbols stay, so functions are still named).
set -euo pipefail
cd "$(dirname "$0")/../.."
RULES=${1:-200}; shift || true
[ "${1:-}" = "--" ] && shift
ARGS=("$@"); [ ${#ARGS[@]} -gt 0 ] || ARGS=(lint)
OUT=${BENCH_DIR:-.build/bench}/profile-$RULES
mkdir -p "$OUT"
[ -d "$OUT/content" ] || python3 .ci/bench/generate_corpus.py "$OUT" --rules "$RULES"
command -v valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
read -r -a RELEASE <<<"$(.ci/bench/release-flags.sh)"
swift build "${RELEASE[@]}" --product bgkb >/dev/null
BIN=$(swift build "${RELEASE[@]}" --show-bin-path)/bgkb
objcopy --strip-debug "$BIN" "$OUT/bgkb-nodebug"
valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" "$OUT/bgkb-nodebug" "${ARGS[@]}" --content "$OUT/content" \
  >/dev/null 2>"$OUT/valgrind.log" || true
echo "instructions (Ir): $(grep -o 'Collected : [0-9]*' "$OUT/valgrind.log" | awk '{print $3}')"
callgrind_annotate --inclusive=yes "$OUT/callgrind.out" 2>/dev/null | sed -n '/file:function/,$p' | sed 's/ \[.*\]$//; s/???://' \
  | swift demangle --simplified | cut -c1-160 | sed -n "3,${TOP:-45}p"
