import BGKBModel

/// What loading Content gives: the corpus, and every problem found on the way.
public struct ContentLoadResult: Sendable {
    public var corpus: Corpus
    public var diagnostics: Diagnostics
    /// Lines of forum page chrome (view counts, badges, the thread's address) left out of the
    /// points: not a problem, only reported in `bgkb lint`'s summary.
    public var chromeLines = 0
    /// A stable hash of every file `ContentLoader` read, by its path inside the Content folder and
    /// its bytes: two loads have the same fingerprint when they read the same Content, wherever
    /// the folder is. Zero for a corpus assembled from files in memory.
    public var fingerprint: UInt64 = 0
}

/// Builds the corpus from files: parses each, links versions, records conflicts, resolves references.
public enum ContentAssembler {
    public static func assemble(documents: [ContentFile], sources: ContentFile?, topics: ContentFile?) -> ContentLoadResult {
        let sorted = documents.sorted(by: { $0.path < $1.path })
        let files: @Sendable (Int) -> Result<ContentFile, Never> = { .success(sorted[$0]) }
        switch assemble(documentCount: sorted.count, document: files, sources: sources, topics: topics) {
        case let .success(result): return result
        }
    }

    /// `assemble(documents:sources:topics:)` over documents that are fetched (read from disk) only
    /// when their turn to parse comes, in path order, so a large corpus is never all in memory as
    /// bytes at once. The first document that cannot be fetched, in path order, is the failure.
    static func assemble<Failure: Error>(documentCount: Int, document: @Sendable (Int) -> Result<ContentFile, Failure>,
                                         sources: ContentFile?, topics: ContentFile?) -> Result<ContentLoadResult, Failure> {
        var diagnostics = Diagnostics()
        let topicList = topics.map { TopicsFile.read($0, diagnostics: &diagnostics) } ?? []
        let sourceList = sources.map { SourcesFile.read($0, diagnostics: &diagnostics) } ?? []

        // Files parse independently: on all cores, each into its own diagnostics, merged in path order.
        let results = ParallelMap.map(Array(0..<documentCount)) { index -> Result<(ParsedFile, Diagnostics), Failure> in
            document(index).map { file in
                var fileDiagnostics = Diagnostics()
                let text = file.decoded(diagnostics: &fileDiagnostics)
                let parser = DocumentParser(path: file.path, text: text, defaultDocumentID: defaultDocumentID(for: file.path), topics: topicList)
                return (parser.parse(diagnostics: &fileDiagnostics), fileDiagnostics)
            }
        }
        var parsed: [ParsedFile] = []
        for result in results {
            switch result {
            case let .success((file, fileDiagnostics)):
                parsed.append(file)
                diagnostics.append(contentsOf: fileDiagnostics)
            case let .failure(error):
                return .failure(error)
            }
        }

        // Group versions by document id, in first-seen order (paths are sorted, so this is stable).
        var order: [String] = []
        var groups: [String: [ParsedFile]] = [:]
        for file in parsed {
            if groups[file.documentID] == nil { order.append(file.documentID) }
            groups[file.documentID, default: []].append(file)
        }

        // Documents link independently: on all cores, merged in first-seen order. A rule is one
        // shared box, so the merge copies references.
        let groupsByID = groups
        // Every version's rule ids (a removed rule can still be referred to), known before linking
        // so that each document's references are checked on the core that links it.
        let known = KnownIDs(rules: Set(parsed.lazy.flatMap { $0.version.rules.lazy.map(\.id) }),
                             sources: Set(sourceList.lazy.map(\.id)), topics: Set(topicList.lazy.map(\.id)))
        let linked = ParallelMap.map(order) { id -> (document: Document, rules: [Rule], conflicts: [Conflict], diagnostics: Diagnostics) in
            var documentDiagnostics = Diagnostics()
            let files = orderVersions(groupsByID[id] ?? [], diagnostics: &documentDiagnostics)
            let versions = files.map(\.version)
            let result = VersionLinker(documentID: id, versions: versions).link()
            let newest = files.last
            for file in files { checkReferences(file.references, known: known, diagnostics: &documentDiagnostics) }
            return (Document(id: id, title: newest?.title ?? id, source: newest?.sourceID, versions: versions), result.rules, result.conflicts,
                    documentDiagnostics)
        }
        var documents: [Document] = []
        var rules: [Rule] = []
        var conflicts: [Conflict] = []
        documents.reserveCapacity(linked.count)
        rules.reserveCapacity(linked.reduce(0) { $0 + $1.rules.count })
        for document in linked {
            documents.append(document.document)
            rules += document.rules
            conflicts += document.conflicts
            diagnostics.append(contentsOf: document.diagnostics)
        }
        conflicts = resolve(conflicts, notes: parsed.flatMap(\.conflictNotes), diagnostics: &diagnostics)

        var corpus = Corpus(sources: sourceList, topics: topicList, documents: documents, rules: rules, conflicts: conflicts)
        checkDuplicates(corpus, diagnostics: &diagnostics)
        fillDisputeLinks(&corpus)
        return .success(ContentLoadResult(corpus: corpus, diagnostics: Diagnostics(diagnostics.sorted),
                                          chromeLines: parsed.reduce(0) { $0 + $1.chromeLines }))
    }

    /// `documents/background-task-notes/2023-06-16.md` → `background-task-notes`; `documents/bgtaskscheduler.md` → `bgtaskscheduler`.
    static func defaultDocumentID(for path: String) -> String {
        let parts = path.split(separator: "/").map(String.init)
        let stem = (parts.last ?? path).split(separator: ".").dropLast().joined(separator: ".")
        if parts.count >= 3, parts[parts.count - 3] == "documents" { return parts[parts.count - 2] }
        return stem.isEmpty ? (parts.last ?? path) : stem
    }

    /// Orders a document's versions by label (dates as dates); two files with one label, or a
    /// multi-version document with an unlabelled file, is an error.
    static func orderVersions(_ files: [ParsedFile], diagnostics: inout Diagnostics) -> [ParsedFile] {
        guard files.count > 1 else { return files }
        let files = files.map(labelledByNewestEntry)
        for file in files where file.version.label == nil {
            diagnostics.error("version-order", "document `\(file.documentID)` has several files, and this one has neither a `version:` "
                              + "nor a dated revision history to take it from",
                              at: file.location,
                              notes: ["add `version: YYYY-MM-DD` (the date of its newest revision) to front matter at the top of the file, "
                                      + "or a `Revision History` with dated entries after the post"])
        }
        func key(_ file: ParsedFile) -> String {
            guard let label = file.version.label else { return "" }
            if case let .date(day, _, _) = RevisionDate.parse(label) { return day.description }
            return label
        }
        var seen: [String: SourceLocation] = [:]
        for file in files {
            let label = key(file)
            if let other = seen[label], !label.isEmpty {
                diagnostics.error("version-order", "two files claim version `\(file.version.label ?? "")` of `\(file.documentID)`",
                                  at: file.location, notes: ["the other is \(other.path)"])
            }
            seen[label] = file.location
        }
        return files.sorted { (key($0), $0.version.path) < (key($1), $1.version.path) }
    }

    /// A version of a document with several files that gives no `version:` is labelled with the
    /// date of its newest revision entry (two raw copies of a post saved at different times).
    static func labelledByNewestEntry(_ file: ParsedFile) -> ParsedFile {
        guard file.version.label == nil, let newest = file.version.revisions.map(\.date).max() else { return file }
        let label = newest.description
        var file = file
        file.version.label = label
        file.version.rules = file.version.rules.map { $0.with { $0.version = label } }
        for index in file.version.revisions.indices { file.version.revisions[index].version = label }
        return file
    }

    /// Attaches our assessments to found conflicts; conflicts the pipeline cannot find come from notes with claims.
    static func resolve(_ found: [Conflict], notes: [ConflictNote], diagnostics: inout Diagnostics) -> [Conflict] {
        var result = found
        for note in notes {
            if let index = result.firstIndex(where: { $0.id == note.id }) {
                if let subject = note.subject { result[index].subject = subject }
                result[index].assessment = note.assessment
                result[index].rules = (result[index].rules + note.rules).uniqued
                result[index].claims += note.claims
            } else if note.claims.count >= 2 {
                result.append(Conflict(id: note.id, subject: note.subject ?? note.id, claims: note.claims, assessment: note.assessment, rules: note.rules))
            } else {
                diagnostics.error("conflict", "no conflict `\(note.id)` was found, and this block gives fewer than two `claims` to record one",
                                  at: note.location, notes: ["found conflicts: " + (found.isEmpty ? "none" : found.map(\.id).joined(separator: ", "))])
            }
        }
        for conflict in result where conflict.assessment == nil {
            let places = conflict.claims.map { "“\($0.value)” at \($0.location)" }.joined(separator: " vs ")
            diagnostics.warning("unassessed-conflict", "\(conflict.subject): \(places)", at: conflict.claims.last?.location,
                                notes: ["record what the evidence says with a ```conflict block whose id is `\(conflict.id)`"])
        }
        return result.sorted { $0.id < $1.id }
    }

    /// A rule id used by two different documents (versions of one document share ids on purpose).
    static func checkDuplicates(_ corpus: Corpus, diagnostics: inout Diagnostics) {
        // Indexes, not rules, in the dictionary.
        var owner: [String: Int] = [:]
        owner.reserveCapacity(corpus.rules.count)
        for index in corpus.rules.indices {
            let id = corpus.rules[index].id
            if let first = owner[id], corpus.rules[first].document != corpus.rules[index].document {
                diagnostics.error("duplicate-id", "rule id `\(id)` is also used in document `\(corpus.rules[first].document)`",
                                  at: corpus.rules[index].location, notes: ["first used at \(corpus.rules[first].location)"])
            } else {
                owner[id] = index
            }
        }
        var sourceSeen = Set<String>()
        for source in corpus.sources where !sourceSeen.insert(source.id).inserted {
            diagnostics.error("duplicate-id", "source id `\(source.id)` is defined twice", at: source.location)
        }
        var topicSeen = Set<String>()
        for topic in corpus.topics where !topicSeen.insert(topic.id).inserted {
            diagnostics.error("duplicate-id", "topic id `\(topic.id)` is defined twice", at: nil)
        }
    }

    /// The ids a reference may name.
    struct KnownIDs: Sendable {
        var rules: Set<String>
        var sources: Set<String>
        var topics: Set<String>
    }

    static func checkReferences(_ references: [Reference], known: KnownIDs, diagnostics: inout Diagnostics) {
        for reference in references {
            let ids: Set<String>
            let id: String
            switch reference.target {
            case .rule: ids = known.rules; id = "missing-rule"
            case .source: ids = known.sources; id = "missing-source"
            case .topic: ids = known.topics; id = "missing-topic"
            }
            guard !ids.contains(reference.id) else { continue }
            let suggestion = FieldReader.closest(to: reference.id, in: Array(ids).sorted()).map { "; did you mean `\($0)`?" } ?? ""
            diagnostics.error(id, "\(reference.role) `\(reference.id)` does not exist\(suggestion)", at: reference.location)
        }
    }

    /// A disputed claim's correcting rules also list the claim as related, so both pages link each other.
    static func fillDisputeLinks(_ corpus: inout Corpus) {
        for position in corpus.rules.indices {
            guard let correctedBy = corpus.rules[position].dispute?.correctedBy, !correctedBy.isEmpty else { continue }
            let id = corpus.rules[position].id
            for target in correctedBy {
                if let index = corpus.rules.firstIndex(where: { $0.id == target }), !corpus.rules[index].related.contains(id) {
                    corpus.rules[index] = corpus.rules[index].with { $0.related.append(id) }
                }
            }
        }
    }
}
