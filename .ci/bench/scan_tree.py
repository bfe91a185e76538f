#!/usr/bin/env python3
"""Writes a tree of Swift files for timing `bgkb scan` (issue 38: 100,000 lines in under 10 s on
2 cores). `worst`: copies of the scan corpus (Tests/Fixtures/scan), every file mentioning the
covered APIs, until LINES lines. `typical`: one line in ten from those copies, the rest plain
model and view code that mentions none of them (skipped before parsing, as in a real app).

usage: scan_tree.py worst|typical LINES OUTPUT_DIR
"""
import os
import sys

kind, target, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
root = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures", "scan")
corpus = []
for folder, _, files in sorted(os.walk(root)):
    for name in sorted(files):
        if name.endswith(".swift"):
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                corpus.append((name, handle.read()))

FILLER = """import Foundation

struct Record{n}: Codable, Hashable {{
    var id: UUID
    var title: String
    var updated: Date
    var tags: [String]

    func matches(_ query: String) -> Bool {{
        title.localizedCaseInsensitiveContains(query) || tags.contains {{ $0.hasPrefix(query) }}
    }}
}}

final class RecordStore{n} {{
    private var records: [UUID: Record{n}] = [:]
    private let queue = DispatchQueue(label: "store.{n}")

    func upsert(_ record: Record{n}) {{
        queue.sync {{ records[record.id] = record }}
    }}

    func search(_ query: String) -> [Record{n}] {{
        queue.sync {{ records.values.filter {{ $0.matches(query) }}.sorted {{ $0.updated > $1.updated }} }}
    }}
}}
"""

os.makedirs(out, exist_ok=True)
lines = 0
index = 0
api_share = 1.0 if kind == "worst" else 0.1
api_lines = 0
while lines < target:
    if api_lines <= api_share * lines:
        name, text = corpus[index % len(corpus)]
        path = os.path.join(out, f"m{index // len(corpus)}", name)
        api_lines += text.count("\n")
    else:
        text = FILLER.format(n=index)
        path = os.path.join(out, f"f{index // 200}", f"Record{index}.swift")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    lines += text.count("\n")
    index += 1
print(f"{out}: {index} files, {lines} lines ({api_lines} in files that mention the APIs)")
