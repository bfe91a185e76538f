#!/usr/bin/env bash
# End-to-end test of `bgkb quiz` through a real pseudo-terminal (tmux): the due line at the start,
# right and wrong answers, "knew it" / "hesitated", a hint, a skip, a miss coming back in the same
# session, resuming with --review, --stats, Ctrl-C, end of input (and `b` then Ctrl-D), colour
# rules, progress files that must be left alone, two sessions at once on one file, exports, and
# piped input with --pass-mark. Usage: .ci/quiz-e2e.sh [path/to/bgkb]
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
# First tries only: a missed question comes back later in the session, marked "again".
while IFS= read -r line; do KEY+=("$line"); done < <(awk '
  /^[0-9]+\/[0-9]+  / { retry = ($0 ~ /again \(missed earlier\)/) }
  /^Correct\./ && !retry { print "a" }
  /^Wrong\. The answer is / && !retry { sub(/^Wrong\. The answer is /, ""); print substr($0, 1, 1) }' key.txt)
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
    if tmux new-session -d -s "$SESSION" -x 80 -y "${ROWS:-50}" \
      "cd '$WORK' && env BGKB_PROGRESS='$WORK/progress.json' $* ; echo \"[exit \$?]\"; sleep 60" 2>/dev/null; then
      return 0
    fi
    sleep 0.3
  done
  echo "cannot start tmux"; return 1
}
PROGRESS="$WORK/progress.json"

# 2. A full session: the due line; right (knew it), wrong, hint then right, skip, right, and the
#    missed question again at the end (hesitated). NO_COLOR set but empty keeps colour (no-color.org).
start NO_COLOR= TERM=xterm-256color "$BIN" quiz --seed $SEED --count $COUNT
check "the due line comes first" 'wait_for "0 due, " && pane | head -n 1 | grep -Eq "^0 due, [0-9]+ new; this session: $COUNT questions\.$"'
check "first question shows 1/$COUNT" 'wait_for "1/$COUNT"'
tmux send-keys -t "$SESSION" "${KEY[0]}" Enter
check "a right answer says Correct" 'wait_for "Correct."'
check "then asks knew it or hesitated" 'wait_for "Knew it? Enter = knew it, h = hesitated:"'
tmux send-keys -t "$SESSION" Enter
check "progress shows 2/$COUNT" 'wait_for "2/$COUNT"'
tmux send-keys -t "$SESSION" "$(wrong_for "${KEY[1]}")" Enter
check "a wrong answer says Wrong and gives the answer" 'wait_for "Wrong. The answer is ${KEY[1]})"'
check "a miss is announced to come back" 'wait_for "This one comes back again after 3 other questions."'
check "the explanation links the site page as one file:// URL" 'wait_for "  See file://$ROOT/Site/rules/"'
check "the session grows by the miss: 3/$((COUNT + 1))" 'wait_for "3/$((COUNT + 1))"'
tmux send-keys -t "$SESSION" "?" Enter
check "? gives a hint" 'wait_for "Hint:"'
tmux send-keys -t "$SESSION" "${KEY[2]}" Enter
check "right after the hint (no knew-it question: a hint is hesitating)" 'wait_for "Correct. (with the hint)"'
check "progress shows 4/$((COUNT + 1))" 'wait_for "4/$((COUNT + 1))"'
tmux send-keys -t "$SESSION" "banana" Enter
check "garbage gets a short message" 'wait_for "is not an answer"'
tmux send-keys -t "$SESSION" "9" Enter
check "out of range gets a short message" 'wait_for "There is no choice \"9\""'
tmux send-keys -t "$SESSION" "s" Enter
check "s skips and shows the answer" 'wait_for "Skipped. The answer is ${KEY[3]})"'
check "progress shows 5/$((COUNT + 1))" 'wait_for "5/$((COUNT + 1))"'
tmux send-keys -t "$SESSION" "${KEY[4]}" Enter
check "knew-it question again" 'test "$(pane | grep -c "Knew it?")" -ge 2'
tmux send-keys -t "$SESSION" Enter
check "the missed question comes back in the same session" 'wait_for "6/$((COUNT + 1))  " && pane | grep -q "^6/$((COUNT + 1)) .*again (missed earlier)"'
tmux send-keys -t "$SESSION" "${KEY[1]}" Enter
check "right the second time" 'test "$(pane | grep -c "Knew it?")" -ge 3'
tmux send-keys -t "$SESSION" "h" Enter
check "the score counts first tries" 'wait_for "Score: 3/$COUNT (60%), 1 skipped."'
check "the summary counts the second try" 'pane | grep -qF "Missed questions asked again: 1 of 1 right the next time."'
check "topics to revisit are listed" 'pane | grep -qF "Topics to revisit:"'
check "the session exits 0" 'wait_for "[exit 0]"'
check "colour on a terminal, NO_COLOR empty" 'tmux capture-pane -p -e -t "$SESSION" -S -200 | grep -q $'"'"'\x1b\[32m'"'"
check "nothing but the URL wider than 80 columns" '! pane | grep -v "  See file://" | awk "length > 80" | grep -q .'
check "progress file written" '[ -s "$PROGRESS" ]'
check "6 answers saved" '[ "$(grep -c "\"grade\"" "$PROGRESS")" -eq 6 ]'
check "knew it, hesitated and hinted recorded" 'grep -q "\"correct\"" "$PROGRESS" && grep -q "\"hesitated\"" "$PROGRESS" && grep -q "\"hinted\"" "$PROGRESS"'
check "no temporary file left" '! ls "$WORK" | grep -q "progress.json.tmp"'

# 3. Resume: the skipped question is due; --review asks it and nothing new.
start NO_COLOR=1 TERM=xterm-256color "$BIN" quiz --review --seed $SEED
check "review: the due line counts the skipped question" 'wait_for "1 due, "'
check "review starts with 1/1 (only the skipped one)" 'wait_for "1/1"'
check "NO_COLOR=1 means no colour" '! tmux capture-pane -p -e -t "$SESSION" -S -200 | grep -q $'"'"'\x1b\['"'"
tmux send-keys -t "$SESSION" "${KEY[3]}" Enter
check "knew it?" 'wait_for "Knew it?"'
tmux send-keys -t "$SESSION" Enter
check "the skipped question answered right" 'wait_for "Score: 1/1 (100%)"'
start "$BIN" quiz --review
check "then nothing is left to review" 'wait_for "Nothing is due for review"'
cp "$PROGRESS" before-stats.json
start "$BIN" quiz --stats
check "stats count the seen questions" 'wait_for "5 seen"'
check "stats give accuracy" 'wait_for "Answers: 6, 83% correct, over 2 session(s)."'
check "stats estimate retention" 'pane | grep -qF "Estimated retention now: "'
check "stats forecast 7 days" 'pane | grep -qF "Forecast of questions due" && pane | grep -q "^Due  *today"'
check "stats have per-topic accuracy and retention" 'pane | grep -qF "seen   due  accuracy  retention"'
check "--stats changes no file" 'cmp -s "$PROGRESS" before-stats.json'

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

# 6. End of input (Ctrl-D at the prompt), and `b` then Ctrl-D, which is not an answer.
start "$BIN" quiz --seed 3 --count 3
check "session for Ctrl-D" 'wait_for "1/3"'
tmux send-keys -t "$SESSION" C-d
check "Ctrl-D ends cleanly" 'wait_for "End of input after 0 of 3"'
check "Ctrl-D exits 0" 'wait_for "[exit 0]"'
BEFORE=$(grep -c '"grade"' "$PROGRESS")
start "$BIN" quiz --seed 3 --count 3
check "session for b, Ctrl-D" 'wait_for "1/3"'
tmux send-keys -t "$SESSION" "b" C-d
sleep 0.3
tmux send-keys -t "$SESSION" C-d
check "b then Ctrl-D is not submitted" 'wait_for "\"b\" was not taken as an answer"'
check "and ends with nothing asked" 'wait_for "End of input after 0 of 3"'
check "nothing recorded" '[ "$(grep -c "\"grade\"" "$PROGRESS")" -eq "$BEFORE" ]'

# 6b. A question taller than the terminal is shown a screenful at a time. Skip until one comes.
ROWS=16 start "$BIN" quiz --progress "$WORK/paged.json" --seed 7 --count 40
check "the session starts with the due line" 'wait_for "1/40" && pane | head -n 1 | grep -q "^0 due, "'
for _ in $(seq 40); do
  if pane | grep -qF -- "-- more ("; then break; fi
  tmux send-keys -t "$SESSION" s Enter
  sleep 0.3
done
check "a tall question is paged" 'wait_for "-- more ("'
check "the question's first line is still on screen at the pager" 'tmux capture-pane -p -t "$SESSION" | grep -Eq "^[0-9]+/[0-9]+  " && tmux capture-pane -p -t "$SESSION" | grep -qF -- "-- more ("'
tmux send-keys -t "$SESSION" q Enter
check "q at the pager quits" 'wait_for "[exit 0]"'

# 7. Files that are not usable progress are reported, exit 1, and are left exactly as they are.
bad_file() { # name, contents, expected message
  local file="$WORK/bad-$1.json" expected=$3
  printf '%s' "$2" > "$file"
  cp "$file" "$file.orig"
  for args in "--count 3" "--stats"; do
    set +e
    "$BIN" quiz --progress "$file" $args > bad.out 2>&1 < /dev/null
    local status=$?
    set -e
    check "$1 ($args): exit 1" '[ $status -eq 1 ]'
    check "$1 ($args): says so" 'grep -qF -- "$expected" bad.out && grep -qF "left as it is" bad.out'
    check "$1 ($args): file untouched, nothing moved aside" 'cmp -s "$file" "$file.orig" && ! ls "$WORK" | grep -q "bad-$1.json.bad"'
  done
}
bad_file corrupt '{"schema": "bgkb-prog' "is not JSON"
bad_file foreign '{"name": "another tool", "version": 3}' "is not a bgkb progress file"
bad_file newer '{"schema": "bgkb-progress", "schemaVersion": 99, "cards": {}, "sessions": []}' "newer bgkb"
bad_file huge '{"schema": "bgkb-progress", "schemaVersion": 2, "sessions": [], "cards": {"q": {"contentVersion": "v", "rule": "r", "history": [], "reviews": 0, "lapses": 0, "stability": 1e300, "difficulty": 5}}}' "stability is 1e+300"
# A file the learner cannot read (left by a run under sudo) and a folder they cannot write to:
# reported with exit 1, before any question, and left as they are. Run as an unprivileged user
# when this script runs as root (root reads and writes anywhere).
mkdir -p "$WORK/locked" && chmod 755 "$WORK" "$WORK/locked"
cp "$PROGRESS" "$WORK/locked/progress.json" && chmod 600 "$WORK/locked/progress.json"
cp "$WORK/locked/progress.json" locked.orig
if [ "$(id -u)" -eq 0 ]; then as_learner() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
else as_learner() { "$@"; }; chmod 000 "$WORK/locked/progress.json"; chmod 555 "$WORK/locked"; fi
for args in "--count 2" "--stats"; do
  set +e
  printf 'a\n' | as_learner "$BIN" quiz --progress "$WORK/locked/progress.json" $args > locked.out 2>&1
  STATUS=$?
  set -e
  check "unreadable file ($args): exit 1, no question" '[ $STATUS -eq 1 ] && ! grep -q "^1/2" locked.out'
  check "unreadable file ($args): says why and what to do" 'grep -qF "Permission denied" locked.out && grep -qF "chown" locked.out'
done
chmod 600 "$WORK/locked/progress.json"
check "unreadable file: left as it was, nothing moved aside" 'cmp -s "$WORK/locked/progress.json" locked.orig && [ "$(ls "$WORK/locked")" = progress.json ]'
set +e
printf 'a\n' | as_learner "$BIN" quiz --progress "$WORK/locked/new.json" --count 2 > ro.out 2>&1
STATUS=$?
set -e
check "unwritable folder: exit 1 before any question" '[ $STATUS -eq 1 ] && ! grep -q "^1/2" ro.out && grep -q "^error: .*Permission denied" ro.out'
chmod 755 "$WORK/locked"

# A save that fails in the middle of a session (here another program replaced the file meanwhile):
# the session stops at once with the reason, exits 1, and the other program's file is kept.
MID="$WORK/mid.json"
set +e
(echo s; sleep 1.5; echo s; echo s) | "$BIN" quiz --progress "$MID" --seed 5 --count 3 > mid.out 2>&1 &
MIDPID=$!
sleep 0.75
printf '{"other program": true}' > "$MID"
wait $MIDPID
STATUS=$?
set -e
check "failed save mid-session: exit 1" '[ $STATUS -eq 1 ]'
check "failed save mid-session: says so and stops" 'grep -qF "progress not saved" mid.out && grep -qF "progress could not be saved" mid.out && ! grep -q "^3/3" mid.out'
check "failed save mid-session: the other file is kept" '[ "$(cat "$MID")" = "{\"other program\": true}" ]'

# Two terminals on one file at once, same seed (the same questions, often in the same second):
# every answer of both counts.
SHARED="$WORK/shared.json"
slow() { for _ in $(seq "$1"); do echo s; sleep 0.05; done; }
slow 8 | "$BIN" quiz --progress "$SHARED" --seed 21 --count 8 > one.out 2>&1 &
ONE=$!
slow 8 | "$BIN" quiz --progress "$SHARED" --seed 21 --count 8 > two.out 2>&1 &
TWO=$!
wait $ONE $TWO
check "two sessions at once: all 16 answers kept" '[ "$(grep -c "\"grade\"" "$SHARED")" -eq 16 ]'
check "two sessions at once: both sessions kept" '[ "$(grep -c "\"seed\"" "$SHARED")" -eq 2 ]'

# Exports.
"$BIN" quiz --export bank.json > export.out
"$BIN" quiz --export-anki bank.txt >> export.out
check "--export writes JSON with every question" 'python3 -c "import json,sys; d=json.load(open(\"bank.json\")); q=d[\"questions\"]; assert d[\"format\"]==\"bgkb-quiz-bank\" and len(q)>100 and all(0<=x[\"answer\"]<len(x[\"choices\"]) for x in q)"'
check "--export-anki writes Anki's headers" '[ "$(head -n 1 bank.txt)" = "#separator:tab" ] && grep -qx "#html:true" bank.txt && grep -qx "#tags column:3" bank.txt'
check "--export-anki: four tab-separated fields a note" '[ "$(grep -v "^#" bank.txt | awk -F "\t" "NF != 4" | wc -l)" -eq 0 ]'

# 8. Piped input: plain output, one answer per line, exit status from --pass-mark.
printf '%s\n' "${KEY[@]}" | BGKB_PROGRESS="$WORK/piped.json" "$BIN" quiz --seed $SEED --count $COUNT --pass-mark 100 > piped.txt 2>&1
check "piped, all right, pass mark 100: exit 0" '[ $? -eq 0 ]'
check "piped output has no escape codes" '! grep -q $'"'"'\x1b'"'"' piped.txt'
check "piped output fits 80 columns (but for whole URLs)" '! grep -v "^  See file://" piped.txt | awk "length > 80" | grep -q .'
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
