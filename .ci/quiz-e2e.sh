#!/usr/bin/env bash
# End-to-end test of `bgkb quiz` through a real pseudo-terminal (tmux): a full session with right
# and wrong answers, a hint, a skip, quitting, resuming with --review, Ctrl-C, end of input, colour
# rules, and piped input with --pass-mark. Usage: .ci/quiz-e2e.sh [path/to/bgkb]
# The answer key is not hard-coded: a piped run with the same seed and empty progress reveals it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BIN=${1:-.build/debug/bgkb}
[ -x "$BIN" ] || swift build --product bgkb >/dev/null
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

WORK=$(mktemp -d)
SESSION=bgkb-quiz-e2e-$$
# A private tmux server (its own socket), so other tmux users on the machine cannot interfere.
tmux() { command tmux -L "$SESSION" "$@"; }
trap 'tmux kill-server 2>/dev/null || true; rm -rf "$WORK"' EXIT
FAILS=0
pass() { echo "ok   - $1"; }
fail() { echo "FAIL - $1"; FAILS=$((FAILS + 1)); }
check() { if eval "$2"; then pass "$1"; else fail "$1"; fi; }

SEED=7
COUNT=5
# Run from an unrelated directory: the knowledge must come with the binary.
cd "$WORK"

# 1. The answer key: answer "a" to everything, piped, with throwaway progress.
yes a | head -n 50 | BGKB_PROGRESS="$WORK/key.json" "$BIN" quiz --seed $SEED --count $COUNT > key.txt 2>&1 || true
KEY=()
while IFS= read -r line; do KEY+=("$line"); done < <(awk '
  /^Correct\./ { print "a" }
  /^Wrong\. The answer is / { sub(/^Wrong\. The answer is /, ""); print substr($0, 1, 1) }' key.txt)
check "piped run reveals $COUNT answers" '[ ${#KEY[@]} -eq $COUNT ]'
wrong_for() { if [ "$1" = a ]; then echo b; else echo a; fi; }

pane() { tmux capture-pane -p -J -t "$SESSION" -S -200; }
wait_for() { # text [seconds]
  local deadline=$((SECONDS + ${2:-10}))
  while [ $SECONDS -lt $deadline ]; do
    if pane | grep -qF -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "--- pane while waiting for: $1"; pane | tail -n 25; return 1
}
start() { # env-and-args...
  tmux kill-session -t "$SESSION" 2>/dev/null || true
  # Killing the last session stops the server; starting the next can race with that, so retry.
  local attempt
  for attempt in 1 2 3; do
    if tmux new-session -d -s "$SESSION" -x 80 -y 50 \
      "cd '$WORK' && env BGKB_PROGRESS='$WORK/progress.json' $* ; echo \"[exit \$?]\"; sleep 60" 2>/dev/null; then
      return 0
    fi
    sleep 0.3
  done
  echo "cannot start tmux"; return 1
}
PROGRESS="$WORK/progress.json"

# 2. A full session: right, wrong, hint then right, skip, quit.
start TERM=xterm-256color "$BIN" quiz --seed $SEED --count $COUNT
check "first question shows 1/$COUNT" 'wait_for "1/$COUNT"'
tmux send-keys -t "$SESSION" "${KEY[0]}" Enter
check "a right answer says Correct" 'wait_for "Correct."'
check "progress shows 2/$COUNT" 'wait_for "2/$COUNT"'
tmux send-keys -t "$SESSION" "$(wrong_for "${KEY[1]}")" Enter
check "a wrong answer says Wrong and gives the answer" 'wait_for "Wrong. The answer is ${KEY[1]})"'
check "the explanation links the site page by a path that works from here" 'wait_for "$ROOT/Site/rules/"'
check "progress shows 3/$COUNT" 'wait_for "3/$COUNT"'
tmux send-keys -t "$SESSION" "?" Enter
check "? gives a hint" 'wait_for "Hint:"'
tmux send-keys -t "$SESSION" "${KEY[2]}" Enter
check "right after the hint" 'wait_for "Correct. (with the hint)"'
check "progress shows 4/$COUNT" 'wait_for "4/$COUNT"'
tmux send-keys -t "$SESSION" "banana" Enter
check "garbage gets a short message" 'wait_for "is not an answer"'
tmux send-keys -t "$SESSION" "9" Enter
check "out of range gets a short message" 'wait_for "There is no choice \"9\""'
tmux send-keys -t "$SESSION" "s" Enter
check "s skips and shows the answer" 'wait_for "Skipped. The answer is ${KEY[3]})"'
check "progress shows 5/$COUNT" 'wait_for "5/$COUNT"'
tmux send-keys -t "$SESSION" "q" Enter
check "q quits with the score of the questions asked" 'wait_for "Score: 2/4 (50%), 1 skipped; $((COUNT - 4)) not asked."'
check "quitting reports where it stopped" 'pane | grep -qF "Stopped after 4 of $COUNT"'
check "topics to revisit are listed" 'pane | grep -qF "Topics to revisit:"'
check "quit exits 0" 'wait_for "[exit 0]"'
check "colour on a terminal" 'tmux capture-pane -p -e -t "$SESSION" -S -200 | grep -q $'"'"'\x1b\[32m'"'"
check "nothing wider than 80 columns" '! pane | awk "length > 80" | grep -q .'
check "progress file written" '[ -s "$PROGRESS" ]'
check "4 answers saved (3 graded, 1 skipped)" '[ "$(grep -c "\"grade\"" "$PROGRESS")" -eq 4 ]'
check "no temporary file left" '! ls "$WORK" | grep -q "progress.json.tmp"'

# 3. Resume: --review asks the missed question (due again 10 minutes after a miss, so it is
#    "missed", not yet due) and nothing new.
start NO_COLOR=1 TERM=xterm-256color "$BIN" quiz --review --seed $SEED
check "review starts with 1/1 (only the missed one)" 'wait_for "1/1"'
check "NO_COLOR means no colour" '! tmux capture-pane -p -e -t "$SESSION" -S -200 | grep -q $'"'"'\x1b\['"'"
tmux send-keys -t "$SESSION" "${KEY[1]}" Enter
check "the missed question answered right" 'wait_for "Score: 1/1 (100%)"'
start "$BIN" quiz --review
check "then nothing is left to review" 'wait_for "Nothing is due for review"'
start "$BIN" quiz --stats
check "stats count the seen questions (a skip leaves a card new)" 'wait_for "3 seen"'

# 4. Resume a normal session: questions already answered right are not asked again today.
start TERM=dumb "$BIN" quiz --seed $SEED --count $COUNT
check "a new session starts" 'wait_for "1/$COUNT"'
check "TERM=dumb means no colour" '! tmux capture-pane -p -e -t "$SESSION" -S -200 | grep -q $'"'"'\x1b\['"'"
FIRST_BEFORE=$(grep -m1 -A1 "^1/$COUNT" key.txt | tail -n1)
check "the first question of the first session (answered right) is not asked first again" \
  '! pane | grep -A1 "^1/$COUNT" | tail -n1 | grep -qxF -- "$FIRST_BEFORE"'

# 5. Ctrl-C in the middle: clean end, answers saved, status 130.
BEFORE=$(grep -c '"grade"' "$PROGRESS")
tmux send-keys -t "$SESSION" "s" Enter
check "second question after a skip" 'wait_for "2/$COUNT"'
tmux send-keys -t "$SESSION" C-c
check "Ctrl-C ends cleanly with the score" 'wait_for "Interrupted after 1 of $COUNT"'
check "Ctrl-C exits 130" 'wait_for "[exit 130]"'
check "the answer before Ctrl-C was saved" '[ "$(grep -c "\"grade\"" "$PROGRESS")" -eq $((BEFORE + 1)) ]'

# 6. End of input (Ctrl-D at the prompt).
start "$BIN" quiz --seed 3 --count 3
check "session for Ctrl-D" 'wait_for "1/3"'
tmux send-keys -t "$SESSION" C-d
check "Ctrl-D ends cleanly" 'wait_for "End of input after 0 of 3"'
check "Ctrl-D exits 0" 'wait_for "[exit 0]"'

# 7. A corrupt progress file is moved aside and the quiz goes on.
printf '{"schema": "bgkb-prog' > "$PROGRESS"
start "$BIN" quiz --seed 3 --count 3
check "corrupt file: a message" 'wait_for "moved it to"'
check "corrupt file: the quiz goes on" 'wait_for "1/3"'
check "corrupt file kept aside" 'ls "$WORK" | grep -q "progress.json.bad-"'

# 8. Piped input: plain output, one answer per line, exit status from --pass-mark.
printf '%s\n' "${KEY[@]}" | BGKB_PROGRESS="$WORK/piped.json" "$BIN" quiz --seed $SEED --count $COUNT --pass-mark 100 > piped.txt 2>&1
check "piped, all right, pass mark 100: exit 0" '[ $? -eq 0 ]'
check "piped output has no escape codes" '! grep -q $'"'"'\x1b'"'"' piped.txt'
check "piped output fits 80 columns" '! awk "length > 80" piped.txt | grep -q .'
set +e
printf 'a\na\na\na\na\n' | BGKB_PROGRESS="$WORK/piped2.json" "$BIN" quiz --seed $SEED --count $COUNT --pass-mark 100 > /dev/null 2>&1
STATUS=$?
set -e
ALL_A=$(printf '%s' "${KEY[@]}")
if [ "$ALL_A" = aaaaa ]; then pass "pass mark (skipped: key is all a)"; else check "piped, some wrong, pass mark 100: exit 1" '[ $STATUS -eq 1 ]'; fi
printf '\xff\xfe\n%s\na\n' "$(head -c 3000 /dev/zero | tr '\0' x)" | BGKB_PROGRESS="$WORK/piped3.json" "$BIN" quiz --seed 1 --count 1 > bad.txt 2>&1 || true
check "invalid UTF-8 and very long lines get messages" 'grep -q "not valid UTF-8" bad.txt && grep -q "too long" bad.txt'

echo
if [ $FAILS -eq 0 ]; then echo "quiz e2e: all checks passed"; else echo "quiz e2e: $FAILS check(s) failed"; exit 1; fi
