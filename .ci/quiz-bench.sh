#!/usr/bin/env bash
# Benchmark (not a test): time from starting `bgkb quiz` to its first question on screen, release
# build, built-in Content (or CONTENT_DIR), fresh progress. Target: under 50 ms.
# Usage: .ci/quiz-bench.sh [bgkb] [runs] [content-dir]
# Wall time on a shared machine includes waiting for a core, so the CPU time of the process is
# printed beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build/release/bgkb}
RUNS=${2:-30}
CONTENT=${3:-}
if [ ! -x "$BIN" ]; then swift build -c release --product bgkb >/dev/null; fi
python3 .ci/bench/first_question.py "$BIN" "$CONTENT" "$RUNS"
