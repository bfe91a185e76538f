// bgkb quiz: FSRS-5 spaced repetition in the browser, progress in localStorage.
(function () {
  "use strict";
  // FSRS-5 with the published default parameters: BGKBQuiz/FSRS.swift, formula for formula.
  var W = [0.40255, 1.18385, 3.173, 15.69105, 7.1949, 0.5345, 1.4604, 0.0046, 1.54575,
           0.1192, 1.01925, 1.9395, 0.11, 0.29605, 2.2698, 0.2315, 2.9898, 0.51655, 0.6621];
  var DECAY = -0.5, FACTOR = Math.pow(0.9, 1 / DECAY) - 1;
  var MIN_S = 0.001, MAX_S = 36500, DAY = 86400000, RELEARN = 600000;
  function clampD(d) { return Math.min(Math.max(d, 1), 10); }
  function clampS(s) { return isFinite(s) ? Math.min(Math.max(s, MIN_S), MAX_S) : MAX_S; }
  function retrievability(days, s) { return Math.pow(1 + FACTOR * Math.max(0, days) / s, DECAY); }
  function interval(s, retention) { return s / FACTOR * (Math.pow(retention, 1 / DECAY) - 1); }
  function initialDifficulty(g) { return clampD(W[4] - Math.exp(W[5] * (g - 1)) + 1); }
  function nextDifficulty(d, g) {
    var damped = d + (-W[6] * (g - 3)) * (10 - d) / 9;
    return clampD(W[7] * (W[4] - Math.exp(W[5] * 3) + 1) + (1 - W[7]) * damped);
  }
  function recallStability(m, r, g) {
    var hard = g === 2 ? W[15] : 1, easy = g === 4 ? W[16] : 1, s = m.s;
    return s * (1 + Math.exp(W[8]) * (11 - m.d) * Math.pow(s, -W[9]) * (Math.exp(W[10] * (1 - r)) - 1) * hard * easy);
  }
  function forgetStability(m, r) {
    return W[11] * Math.pow(m.d, -W[12]) * (Math.pow(m.s + 1, W[13]) - 1) * Math.exp(W[14] * (1 - r));
  }
  function shortTerm(s, g) { return s * Math.exp(W[17] * (g - 3 + W[18])); }
  // The memory after an answer rated g (1 again … 4 easy); elapsed in days, null for a first answer.
  function next(m, g, elapsed) {
    if (!m || elapsed === null || elapsed === undefined) { return { s: clampS(W[g - 1]), d: initialDifficulty(g) }; }
    var days = Math.max(0, Math.floor(elapsed));
    var r = retrievability(days, m.s), s;
    if (days < 1) { s = shortTerm(m.s, g); }
    else if (g === 1) { s = Math.min(forgetStability(m, r), shortTerm(m.s, g)); }
    else { s = recallStability(m, r, g); }
    return { s: clampS(s), d: nextDifficulty(m.d, g) };
  }
  // Days until the next review after a rating other than again (Card.apply in Swift).
  function scheduledDays(s, retention) { return Math.min(Math.max(Math.round(interval(s, retention)), 1), MAX_S); }
  window.BGKB_FSRS = { next: next, interval: interval, retrievability: retrievability, scheduledDays: scheduledDays };

  var bank = window.BGKB_QUIZ;
  var card = document.getElementById("quiz-card");
  if (!bank || !card) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var status = $("quiz-status"), prompt = $("quiz-prompt"), meta = $("quiz-meta"), listing = $("quiz-listing");
  var choicesList = $("quiz-choices"), feedback = $("quiz-feedback"), hintText = $("quiz-hint-text");
  var nextRow = $("quiz-next-row"), nextButton = $("quiz-next"), hesitated = $("quiz-hesitated"), progressLine = $("quiz-progress");
  var RETENTION = 0.9, KEY = "bgkb-quiz-progress", SESSION = 10, GRADES = { correct: 3, hesitated: 2, hinted: 2, wrong: 1, skipped: 0 };

  var storage = null;
  try { storage = window.localStorage; storage.getItem(KEY); } catch (error) { storage = null; }
  function load() {
    var empty = { format: "bgkb-browser-progress", version: 1, cards: {} };
    if (!storage) { return empty; }
    try {
      var saved = JSON.parse(storage.getItem(KEY) || "null");
      return saved && saved.format === empty.format && saved.cards ? saved : empty;
    } catch (error) { return empty; }
  }
  var progress = load();
  function save() {
    if (!storage) { return false; }
    try { storage.setItem(KEY, JSON.stringify(progress)); return true; } catch (error) { return false; }
  }

  // A card for its current wording: a reworded question starts again, its answers kept.
  function cardFor(q) {
    var c = progress.cards[q.id];
    if (!c) { c = progress.cards[q.id] = { v: q.contentVersion, m: null, last: null, due: null, reviews: 0, lapses: 0, history: [] }; }
    if (c.v !== q.contentVersion) { c.v = q.contentVersion; c.m = null; c.last = null; c.due = null; c.reviews = 0; c.lapses = 0; }
    return c;
  }
  function record(q, grade, at) {
    var c = cardFor(q), g = GRADES[grade];
    c.history.push({ at: at, grade: grade, v: q.contentVersion });
    if (!g) { c.due = at; return; }
    c.m = next(c.m, g, c.last === null ? null : (at - c.last) / DAY);
    c.last = at;
    c.reviews += 1;
    if (g === 1) { c.lapses += 1; c.due = at + RELEARN; }
    else { c.due = at + scheduledDays(c.m.s, RETENTION) * DAY; }
  }

  var topic = new URLSearchParams(window.location.search).get("topic") || "";
  var topicSelect = $("topic");
  var topicTitle = "";
  bank.topics.forEach(function (t) { if (t.id === topic) { topicTitle = t.title; } });
  if (topic && !topicTitle) { topic = ""; }
  topicSelect.value = topic;
  var pool = bank.questions.filter(function (q) { return !topic || q.topics.indexOf(topic) >= 0; });

  // A session as the terminal quiz orders it: due cards (most overdue first), then missed
  // ones, with new questions (one rule at a time) getting about a third of the places.
  function select(now) {
    var due = [], missed = [], fresh = [], later = [];
    pool.forEach(function (q) {
      var c = progress.cards[q.id];
      if (c && c.v === q.contentVersion && c.due !== null) {
        if (c.due <= now) { due.push(q); } else if (c.lapses && c.history.length && c.history[c.history.length - 1].grade === "wrong") { missed.push(q); } else { later.push(q); }
      } else { fresh.push(q); }
    });
    var byDue = function (a, b) { return progress.cards[a.id].due - progress.cards[b.id].due; };
    due.sort(byDue); later.sort(byDue);
    var rules = [], groups = {};
    fresh.forEach(function (q) { if (!groups[q.rule]) { groups[q.rule] = []; rules.push(q.rule); } groups[q.rule].push(q); });
    var spread = [];
    for (var round = 0; spread.length < fresh.length; round++) {
      rules.forEach(function (r) { if (round < groups[r].length) { spread.push(groups[r][round]); } });
    }
    var reviews = due.concat(missed);
    var freshCount = Math.min(spread.length, Math.max(SESSION - reviews.length, Math.floor(SESSION / 3)));
    var reviewCount = Math.min(reviews.length, SESSION - freshCount);
    var a = reviews.slice(0, reviewCount), b = spread.slice(0, freshCount), out = [], i = 0, j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && (j >= b.length || i / Math.max(a.length, 1) <= j / Math.max(b.length, 1))) { out.push(a[i++]); } else { out.push(b[j++]); }
    }
    return out.concat(later.slice(0, Math.max(0, SESSION - out.length))).slice(0, SESSION);
  }

  var queue = [], current = null, answered = false, usedHint = false, tries = {}, score = { right: 0, asked: 0 };

  function summary() {
    var now = Date.now(), due = 0, fresh = 0, seen = 0;
    pool.forEach(function (q) {
      var c = progress.cards[q.id];
      if (!c || c.v !== q.contentVersion || c.due === null) { fresh += 1; } else { seen += 1; if (c.due <= now) { due += 1; } }
    });
    var where = topicTitle ? " in " + topicTitle : "";
    progressLine.textContent = seen === 0 ? "Nothing answered yet" + where + " in this browser (" + fresh + " new questions)." :
      seen + " of " + pool.length + " questions answered" + where + "; " + due + " due now, " + fresh + " new." +
      (storage ? "" : " This browser does not let the page keep progress.");
  }

  function show(q) {
    current = q; answered = false; usedHint = false;
    card.hidden = false;
    card.dataset.question = q.id;
    meta.textContent = q.kind.replace("-", " ") + " · " + (score.asked + 1) + " of this session";
    prompt.textContent = q.prompt;
    listing.hidden = !q.listing;
    listing.firstChild.textContent = q.listing || "";
    choicesList.textContent = "";
    q.choices.forEach(function (choice, index) {
      var item = document.createElement("li"), button = document.createElement("button");
      button.type = "button";
      button.className = "quiz-choice";
      button.setAttribute("data-index", String(index));
      var key = document.createElement("kbd");
      key.textContent = String.fromCharCode(97 + index);
      button.appendChild(key);
      button.appendChild(document.createTextNode(" " + choice));
      button.addEventListener("click", function () { answer(index); });
      item.appendChild(button);
      choicesList.appendChild(item);
    });
    hintText.hidden = true; hintText.textContent = "";
    feedback.textContent = ""; feedback.className = "quiz-feedback";
    nextRow.hidden = true; hesitated.hidden = true;
    $("quiz-hint").disabled = false; $("quiz-skip").disabled = false;
    prompt.focus();
  }

  function explain(q, text) {
    feedback.textContent = "";
    var line = document.createElement("p"); line.className = "quiz-verdict"; line.textContent = text; feedback.appendChild(line);
    var why = document.createElement("p"); why.textContent = q.explanation; feedback.appendChild(why);
    var more = document.createElement("p"), link = document.createElement("a");
    link.href = q.link; link.textContent = "Read the rule"; more.appendChild(link); feedback.appendChild(more);
  }

  function answer(index) {
    if (!current || answered) { return; }
    answered = true;
    var q = current, right = index === q.answer;
    Array.prototype.forEach.call(choicesList.querySelectorAll("button"), function (b) {
      var i = Number(b.getAttribute("data-index"));
      b.disabled = true;
      if (i === q.answer) { b.classList.add("is-right"); } else if (i === index) { b.classList.add("is-wrong"); }
    });
    $("quiz-hint").disabled = true; $("quiz-skip").disabled = true;
    score.asked += 1;
    var letter = String.fromCharCode(97 + q.answer);
    if (right) {
      score.right += 1;
      feedback.className = "quiz-feedback is-right";
      explain(q, "Right: " + letter + ") " + q.choices[q.answer] + ".");
      hesitated.hidden = usedHint;
      if (usedHint) { record(q, "hinted", Date.now()); current.recorded = true; save(); summary(); }
    } else {
      feedback.className = "quiz-feedback is-wrong";
      explain(q, "Not quite: the answer is " + letter + ") " + q.choices[q.answer] + ".");
      record(q, "wrong", Date.now());
      current.recorded = true;
      save(); summary();
      // A missed question comes back after three others, at most three tries a session.
      tries[q.id] = (tries[q.id] || 0) + 1;
      if (tries[q.id] < 3) { queue.splice(Math.min(3, queue.length), 0, q); }
    }
    nextRow.hidden = false;
    nextButton.focus();
  }

  function proceed(grade) {
    if (!current || !answered) { return; }
    if (!current.recorded) { record(current, grade, Date.now()); }
    current.recorded = false;
    save(); summary(); advance();
  }

  function skip() {
    if (!current || answered) { return; }
    record(current, "skipped", Date.now()); save(); summary(); advance();
  }

  function hint() {
    if (!current || answered) { return; }
    usedHint = true;
    hintText.hidden = false;
    hintText.textContent = "Hint: " + current.hint;
  }

  function advance() {
    current = queue.shift() || null;
    if (current) { show(current); return; }
    card.hidden = true;
    status.textContent = score.asked === 0 ? "Nothing is due" + (topicTitle ? " in " + topicTitle : "") + ". Come back later, or choose another topic." :
      "Session done: " + score.right + " of " + score.asked + " right. Reload the page for the next session.";
  }

  $("quiz-hint").addEventListener("click", hint);
  $("quiz-skip").addEventListener("click", skip);
  nextButton.addEventListener("click", function () { proceed("correct"); });
  hesitated.addEventListener("click", function () { proceed("hesitated"); });
  $("quiz-reset").addEventListener("click", function () {
    if (!window.confirm("Forget every answer given in this browser?")) { return; }
    progress = { format: "bgkb-browser-progress", version: 1, cards: {} };
    save(); summary();
  });
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) { return; }
    var key = event.key;
    if (!answered && current) {
      var index = -1;
      if (/^[1-5]$/.test(key)) { index = Number(key) - 1; }
      else if (/^[a-e]$/.test(key)) { index = key.charCodeAt(0) - 97; }
      if (index >= 0 && index < current.choices.length) { event.preventDefault(); answer(index); return; }
      if (key === "?") { event.preventDefault(); hint(); return; }
      if (key === "s") { event.preventDefault(); skip(); return; }
    } else if (answered) {
      if (key === "h" && !hesitated.hidden) { event.preventDefault(); proceed("hesitated"); return; }
      if (key === "Enter" && target !== nextButton && target !== hesitated) { event.preventDefault(); proceed("correct"); }
    }
  });

  queue = select(Date.now());
  summary();
  status.textContent = (topicTitle ? topicTitle + ": " : "") + (queue.length ? queue.length + " questions this session." : "");
  advance();
})();
