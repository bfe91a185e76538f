#!/usr/bin/env python3
"""Writes a synthetic corpus for the benchmarks: the same rules twice.

    generate_corpus.py OUT [--rules N] [--seed S] [--per-document K]

OUT/content  a Content directory in bgkb's format (Content/README.md): sources.yml, topics.yml and
             documents/gen-NNNN.md, each a guidance document of K rules with front matter, headings,
             several paragraphs per rule, a list, Why/Instead paragraphs, a Swift snippet, a ```rule
             block, two ```scenario examples, a sign-off and a dated revision history.
OUT/hugo     a Hugo site with minimal layouts whose content/rules/ID.md pages carry, byte for byte,
             the Markdown of each rule as it appears in OUT/content (so the three tools parse the
             same text), and an index that links every rule.

Deterministic: the same N, seed and K give byte-identical output (one random.Random(seed) drives
everything; nothing reads the clock or the environment).
"""
import argparse
import os
import random
import shutil

# Topic ids and titles: the same vocabulary as the real Content/topics.yml, so rules read alike.
TOPICS = [
    ("what-is-a-background-task", "What a background task is", ["assertion", "does not start"]),
    ("beginning-and-ending", "Beginning and ending tasks", ["endBackgroundTask", "identifier", "bookkeeping"]),
    ("expiry-handlers", "Expiry handlers", ["expiry handler", "expirationHandler"]),
    ("time-budgets", "Time budgets and limits", ["backgroundTimeRemaining", "budget"]),
    ("threading", "Threading", ["main thread", "serial queue"]),
    ("app-lifecycle", "App lifecycle", ["applicationDidEnterBackground", "suspended"]),
    ("diagnosing-crashes", "Diagnosing crashes", ["0x8badf00d", "crash report"]),
    ("background-tasks-framework", "The BackgroundTasks framework", ["BGTaskScheduler", "BGProcessingTask"]),
    ("extensions-and-watchos", "App extensions and watchOS", ["performExpiringActivity"]),
    ("background-push", "Background push", ["content-available", "silent push"]),
    ("testing-and-debugging", "Testing and debugging", ["LLDB", "sysdiagnose"]),
    ("misconceptions", "Misconceptions", []),
]

APIS = [
    "UIApplication.beginBackgroundTask(withName:expirationHandler:)", "UIApplication.endBackgroundTask(_:)",
    "UIBackgroundTaskIdentifier.invalid", "UIApplication.backgroundTimeRemaining",
    "BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)", "BGTaskScheduler.submit(_:)",
    "BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "BGTask.setTaskCompleted(success:)",
    "BGTask.expirationHandler", "ProcessInfo.performExpiringActivity(withReason:using:)",
    "UIApplicationDelegate.applicationDidEnterBackground(_:)", "UISceneDelegate.sceneDidEnterBackground(_:)",
    "DispatchQueue", "URLSessionConfiguration.background(withIdentifier:)", "OSLog",
]

SUBJECTS = ["the app", "your code", "an expiry handler", "a background task", "the launch handler", "a processing task",
            "the upload", "each task", "the scene delegate", "a refresh task", "the work item", "the extension"]
VERBS = ["end", "begin", "name", "register", "submit", "cancel", "record", "finish", "schedule", "check", "save", "release"]
OBJECTS = ["its background task", "the task identifier", "the pending request", "the work it started",
           "the assertion it holds", "every task it begins", "the launch handler", "the shared state",
           "the expiry handler", "the database transaction", "the network request", "the completion handler"]
WHENS = ["before the budget runs out", "on the main thread", "as soon as the work is done", "exactly once",
         "before it returns", "when the app moves to the background", "from the same serial queue",
         "before launch completes", "whenever the system calls it in", "on every launch"]
FACT_VERBS = ["keeps", "stops", "delays", "ends", "suspends", "wakes", "throttles", "limits"]
NOUNS = ["budget", "assertion", "watchdog", "identifier", "queue", "handler", "scheduler", "request", "crash report",
         "timeline", "system log", "deadline", "process", "thread", "session", "snapshot"]
ADJECTIVES = ["outstanding", "dormant", "expired", "pending", "shared", "serial", "concurrent", "leaked", "finished",
              "suspended", "background", "foreground"]
KINDS = ["must", "must-not", "should", "should-not", "fact", "fact"]


class Writer:
    def __init__(self, rng):
        self.rng = rng

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def api(self):
        return "`" + self.pick(APIS) + "`"

    def sentence(self):
        r = self.rng.randrange(8)
        subject = self.pick(SUBJECTS)
        if r == 0:
            return f"{cap(subject)} {self.pick(FACT_VERBS)} the {self.pick(ADJECTIVES)} {self.pick(NOUNS)} until {self.pick(WHENS[:4])}."
        if r == 1:
            return f"When {subject} calls {self.api()}, the system starts counting against the {self.pick(NOUNS)}."
        if r == 2:
            n = self.pick([5, 10, 30, 60, 180])
            return f"The {self.pick(NOUNS)} is about {n} seconds, not guaranteed, and it depends on the state of the device."
        if r == 3:
            return f"A {self.pick(ADJECTIVES)} {self.pick(NOUNS)} is *not* the same thing as a {self.pick(ADJECTIVES)} {self.pick(NOUNS)}."
        if r == 4:
            return f"Apple's documentation for {self.api()} says so in its Discussion section."
        if r == 5:
            return f"In practice the {self.pick(NOUNS)} shows up in the {self.pick(NOUNS)} long after {subject} stopped caring about it."
        if r == 6:
            return f"Logging the {self.pick(NOUNS)} with **{self.pick(ADJECTIVES)}** state makes the {self.pick(NOUNS)} easy to find later."
        return f"If {subject} forgets, the {self.pick(NOUNS)} stays {self.pick(ADJECTIVES)} and the watchdog ends the process."

    def paragraph(self, count):
        return " ".join(self.sentence() for _ in range(count))

    def statement(self, kind):
        subject = cap(self.pick(SUBJECTS))
        verb, obj, when = self.pick(VERBS), self.pick(OBJECTS), self.pick(WHENS)
        if kind == "must":
            return f"{subject} must {verb} {obj} {when}."
        if kind == "must-not":
            return f"{subject} must never {verb} {obj} {when}."
        if kind == "should":
            return f"{subject} should {verb} {obj} {when}."
        if kind == "should-not":
            return f"{subject} should avoid leaving {obj} {self.pick(ADJECTIVES)} {when}."
        return f"{subject} {self.pick(FACT_VERBS)} {obj} {when}."


def cap(text):
    return text[:1].upper() + text[1:]


SWIFT_SNIPPETS = [
    """final class {Name}Uploader {{
    private var task: UIBackgroundTaskIdentifier = .invalid

    func start() {{
        task = UIApplication.shared.beginBackgroundTask(withName: "{name}") {{ [weak self] in
            self?.finish()
        }}
        upload {{ [weak self] _ in self?.finish() }}
    }}

    private func finish() {{
        guard task != .invalid else {{ return }}
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }}
}}""",
    """BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.{name}", using: nil) {{ task in
    let operation = {Name}Operation()
    task.expirationHandler = {{ operation.cancel() }}
    operation.completionBlock = {{
        task.setTaskCompleted(success: !operation.isCancelled)
    }}
    queue.addOperation(operation)
}}""",
    """func sceneDidEnterBackground(_ scene: UIScene) {{
    let id = UIApplication.shared.beginBackgroundTask(withName: "{name}") {{
        Log.{name}.error("expired before the save finished")
    }}
    store.save {{
        UIApplication.shared.endBackgroundTask(id)
    }}
}}""",
]

FOLLOWS = [
    """on applicationDidEnterBackground {{
    print("{name} saved")
}}
at 0s: app launches
at {t}s: app enters background
expect printed "{name} saved"
expect suspended""",
    """var {name}Task: UIBackgroundTaskIdentifier = .invalid
on applicationDidEnterBackground {{
    {name}Task = UIApplication.shared.beginBackgroundTask(withName: "{name}") {{
        UIApplication.shared.endBackgroundTask({name}Task)
    }}
    UIApplication.shared.endBackgroundTask({name}Task)
}}
at 0s: app launches
at {t}s: app enters background
expect suspended""",
]

BREAKS = [
    """on applicationDidEnterBackground {{
    _ = UIApplication.shared.beginBackgroundTask(withName: "{name}") {{ }}
}}
at 0s: app launches
at {t}s: app enters background
expect terminated 0x8badf00d""",
    """var {name}Task: UIBackgroundTaskIdentifier = .invalid
on applicationDidEnterBackground {{
    {name}Task = UIApplication.shared.beginBackgroundTask(withName: "{name}") {{ }}
    {name}Task = UIApplication.shared.beginBackgroundTask(withName: "{name}-again") {{ }}
    UIApplication.shared.endBackgroundTask({name}Task)
}}
at 0s: app launches
at {t}s: app enters background
expect terminated 0x8badf00d""",
]

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def rule_markdown(w, index, rule_id, kind, topics, related, sources):
    """One rule as Markdown: the text of its point, its annotation and its two examples."""
    rng = w.rng
    name = f"job{index}"
    lead = w.statement(kind)
    if rng.randrange(10) == 0:
        lead = "IMPORTANT " + lead
    parts = [lead + " " + w.paragraph(2)]
    parts.append(w.paragraph(rng.randrange(3, 5)))
    if rng.randrange(2) == 0:
        parts.append(w.paragraph(3))
    parts.append("\n".join(f"- {w.sentence()}" for _ in range(3)))
    parts.append("**Why it matters.** " + w.paragraph(2))
    parts.append("**Instead.** " + w.paragraph(1))
    snippet = w.pick(SWIFT_SNIPPETS).format(name=name, Name=name.capitalize())
    parts.append("```swift\n" + snippet + "\n```")
    apis = sorted({w.pick(APIS) for _ in range(2)})
    value = w.pick([1, 5, 10, 30, 180, 1000])
    unit = w.pick(["s", "s", "min", "count"])
    block = [
        f"id: {rule_id}",
        f"kind: {kind}",
        f"topics: [{', '.join(topics)}]",
        "apis: [" + ", ".join(f'"{a}"' for a in apis) + "]",
        "numbers:",
        f"  - {{value: {value}, unit: {unit}, firmness: {w.pick(['about', 'at-most', 'exact'])}, "
        f"measures: {w.pick(NOUNS)} of the {w.pick(ADJECTIVES)} {w.pick(NOUNS)}, note: depends on system state}}",
        "sources:",
    ]
    for source in sources:
        block.append(f"  - {{source: {source}, locator: \"{w.pick(['Discussion', 'Overview', 'Listing 1', 'the accepted answer'])}\"}}")
    if related:
        block.append(f"related: [{', '.join(related)}]")
    parts.append("```rule\n" + "\n".join(block) + "\n```")
    t = rng.randrange(1, 20)
    parts.append(f'```scenario follows "{name} ends cleanly"\n' + w.pick(FOLLOWS).format(name=name, t=t) + "\n```")
    parts.append(f'```scenario breaks "{name} leaks its task"\n' + w.pick(BREAKS).format(name=name, t=t) + "\n```")
    return "\n\n".join(parts)


def generate(out, rules, seed, per_document):
    rng = random.Random(seed)
    w = Writer(rng)
    content = os.path.join(out, "content")
    hugo = os.path.join(out, "hugo")
    for path in (content, hugo):
        if os.path.exists(path):
            shutil.rmtree(path)
    os.makedirs(os.path.join(content, "documents"))
    os.makedirs(os.path.join(hugo, "content", "rules"))

    with open(os.path.join(content, "topics.yml"), "w") as f:
        for tid, title, keywords in TOPICS:
            f.write(f"- id: {tid}\n  title: {title}\n  summary: Generated topic {title.lower()}.\n")
            f.write("  keywords: [" + ", ".join(f'"{k}"' for k in keywords) + "]\n")
    source_ids = [f"gen-source-{i:02d}" for i in range(40)]
    with open(os.path.join(content, "sources.yml"), "w") as f:
        for i, sid in enumerate(source_ids):
            f.write(f"- id: {sid}\n  title: Generated source {i}\n  publisher: {w.pick(['Apple Developer Documentation', 'Apple Developer Forums', 'Third-party blog'])}\n")
            f.write(f"  url: https://example.com/sources/{i}\n  reliability: {w.pick(['primary', 'secondary', 'third-party'])}\n")
            f.write(f"  summary: {w.sentence()}\n")

    documents = (rules + per_document - 1) // per_document
    index = 0
    for d in range(documents):
        count = min(per_document, rules - index)
        doc_source = w.pick(source_ids)
        doc_topics = sorted({w.pick(TOPICS)[0] for _ in range(2)})
        ids = [f"gen-rule-{index + k:05d}" for k in range(count)]
        lines = [
            "---",
            f"title: Generated guidance {d + 1}",
            f"source: {doc_source}",
            f"topics: [{', '.join(doc_topics)}]",
            f"summary: {w.sentence()}",
            "---",
            "",
            f"# Generated guidance {d + 1}",
            "",
        ]
        for k, rule_id in enumerate(ids):
            if k % 5 == 0:
                lines += [f"## {cap(w.pick(ADJECTIVES))} {w.pick(NOUNS)}s and their {w.pick(NOUNS)}s", ""]
            kind = w.pick(KINDS)
            topics = sorted({w.pick(TOPICS)[0] for _ in range(2)})
            related = sorted({w.pick(ids) for _ in range(2)} - {rule_id})
            sources = sorted({w.pick(source_ids) for _ in range(w.rng.randrange(1, 3))})
            body = rule_markdown(w, index, rule_id, kind, topics, related, sources)
            lines += [body, ""]
            title = body.split(". ", 1)[0].removeprefix("IMPORTANT ")
            with open(os.path.join(hugo, "content", "rules", rule_id + ".md"), "w") as page:
                page.write(f"---\ntitle: \"{title}\"\nweight: {index + 1}\n---\n\n{body}\n")
            index += 1
        lines += ["Share and Enjoy", "", "Revision History", ""]
        year = 2016 + d % 8
        for e in range(4):
            linked = w.pick(ids)
            day = 28 - e * 6
            if e % 2 == 0:
                date = f"{year + 3 - e}-{(e * 3 + 2):02d}-{day:02d}"
            else:
                date = f"{day} {MONTHS[(e * 3 + 2) - 1]} {year + 3 - e}"
            lines.append(f"- {date} Reworded [the point on {w.pick(NOUNS)}s](#{linked}) and updated its example.")
        lines += ["", "Comments after the history are not part of the document."]
        with open(os.path.join(content, "documents", f"gen-{d + 1:04d}.md"), "w") as f:
            f.write("\n".join(lines) + "\n")

    write_hugo_site(hugo)


def write_hugo_site(hugo):
    with open(os.path.join(hugo, "config.toml"), "w") as f:
        f.write('baseURL = "https://example.org/"\ntitle = "bgkb benchmark"\n'
                'disableKinds = ["taxonomy", "term"]\n'
                # Hugo highlights fenced code by default; bgkb renders code blocks as plain <pre>,
                # so the comparison is fairer (and harder for bgkb) with highlighting off.
                '[markup.highlight]\n  codeFences = false\n')
    layouts = os.path.join(hugo, "layouts")
    os.makedirs(os.path.join(layouts, "_default"))
    with open(os.path.join(layouts, "_default", "baseof.html"), "w") as f:
        f.write('<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>\n'
                '<body>{{ block "main" . }}{{ end }}</body></html>\n')
    with open(os.path.join(layouts, "_default", "single.html"), "w") as f:
        f.write('{{ define "main" }}<main><h1>{{ .Title }}</h1>{{ .Content }}</main>{{ end }}\n')
    with open(os.path.join(layouts, "_default", "list.html"), "w") as f:
        f.write('{{ define "main" }}<main><h1>{{ .Title }}</h1><ul>{{ range .Pages }}'
                '<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></main>{{ end }}\n')
    with open(os.path.join(layouts, "index.html"), "w") as f:
        f.write('{{ define "main" }}<main><h1>{{ .Site.Title }}</h1><ul>{{ range .Site.RegularPages }}'
                '<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></main>{{ end }}\n')


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--rules", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-document", type=int, default=20)
    args = parser.parse_args()
    generate(args.out, args.rules, args.seed, args.per_document)


if __name__ == "__main__":
    main()
