@testable import BGKBContent
import BGKBModel
import Testing

@Suite struct DiagnosticTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let expected: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Case(name: "bad front matter", text: "---\ntitle: [unclosed\n---\n\nA point.\n", expected: "Content/d.md:3:1 [bad-front-matter]"),
        Case(name: "front matter never closed", text: "---\ntitle: x\n\nA point.\n", expected: "Content/d.md:1:1 [bad-front-matter]"),
        Case(name: "unknown field", text: "---\ntitle: x\nsumary: y\n---\n\nA point.\n", expected: "Content/d.md:3:1 [unknown-field]"),
        Case(name: "unknown rule field", text: "A point.\n\n```rule\nid: a\nkinds: must\n```\n", expected: "Content/d.md:5:1 [unknown-field]"),
        Case(name: "bad kind", text: "A point.\n\n```rule\nkind: maybe\n```\n", expected: "Content/d.md:4:7 [bad-field-value]"),
        Case(name: "bad id", text: "A point.\n\n```rule\nid: Not_Kebab\n```\n", expected: "Content/d.md:4:5 [bad-field-value]"),
        Case(name: "duplicate id", text: "A.\n\n```rule\nid: a\n```\n\nB.\n\n```rule\nid: a\n```\n", expected: "Content/d.md:7:1 [duplicate-id]"),
        Case(name: "impossible date", text: "A point.\n\nRevision History\n\n2023-02-30 Nope.\n", expected: "Content/d.md:5:1 [impossible-date]"),
        Case(name: "bad date", text: "A point.\n\nRevision History\n\n- 2023-6-01 Nope.\n", expected: "Content/d.md:5:1 [bad-date]"),
        Case(name: "missing rule", text: "A point.\n\n```rule\nrelated: [nowhere]\n```\n", expected: "Content/d.md:4:11 [missing-rule]"),
        Case(name: "missing source", text: "A point.\n\n```rule\nsources: [nowhere]\n```\n", expected: "Content/d.md:4:11 [missing-source]"),
        Case(name: "missing topic", text: "A point.\n\n```rule\ntopics: [nowhere]\n```\n", expected: "Content/d.md:4:10 [missing-topic]"),
        Case(name: "link to missing rule", text: "A point.\n\nRevision History\n\n2023-01-01 Fixed [it](#nowhere).\n", expected: "Content/d.md:5:1 [missing-rule]"),
        Case(name: "example without expectation", text: "A point.\n\n```scenario follows\nwork 1s\n```\n", expected: "Content/d.md:3:1 [example-without-expectation]"),
        Case(name: "example without intent", text: "A point.\n\n```scenario\nexpect suspended\n```\n", expected: "Content/d.md:3:1 [example-without-intent]"),
        Case(name: "unterminated fence", text: "A point.\n\n```swift\nlet x = 1\n", expected: "Content/d.md:3:1 [unterminated-fence]"),
        Case(name: "empty document", text: "\n\n", expected: "Content/d.md:1:1 [empty-document]"),
        Case(name: "conflict note with nothing to attach to", text: "A.\n\n```conflict\nid: nothing\n```\n", expected: "Content/d.md:3:1 [conflict]"),
        Case(name: "measures asks a question", text: "A point.\n\n```rule\nnumbers:\n  - {value: 60, unit: s, measures: what two tasks give}\n```\n",
             expected: "Content/d.md:5:36 [number-measures-question]"),
        Case(name: "column after multi-byte text", text: "A point.\n\n```rule\ntopics: [é, nowhere]\n```\n", expected: "Content/d.md:4:13 [missing-topic]"),
    ])
    func eachProblemIsReportedWhereItIs(_ example: Case) {
        let topics = "- id: é\n  title: Accent\n"
        let result = assemble(["d.md": example.text], sources: testSources, topics: topics)
        #expect(places(result.diagnostics).contains(example.expected), "got \(places(result.diagnostics))")
    }

    @Test func invalidUTF8IsReportedAfterMultiByteTextAndTheRestStillParses() {
        var bytes = Array("Café crème is fine.\n\nCafé \u{00E9}".utf8)
        bytes += [0xFF, 0x0A, 0x0A] + Array("You must end it.\n".utf8)
        let result = ContentAssembler.assemble(documents: [ContentFile(path: "Content/d.md", bytes: bytes)], sources: nil, topics: nil)
        #expect(places(result.diagnostics) == ["Content/d.md:3:7 [invalid-utf8]"])
        #expect(result.corpus.rules.count == 3)
    }

    @Test func everyProblemIsReportedInOneRun() throws {
        let result = try ContentLoader.load(directory: repositoryRoot + "/Tests/Fixtures/broken")
        let ids = Set(result.diagnostics.errors.map(\.id))
        #expect(ids.isSuperset(of: ["unknown-field", "impossible-date", "bad-date", "bad-field-value", "missing-topic", "missing-rule",
                                    "example-without-expectation", "example-without-intent", "duplicate-id", "unterminated-fence"]))
        #expect(result.diagnostics.errors.allSatisfy { $0.location != nil })
    }

    @Test func diagnosticsPrintAsPathLineColumn() {
        let diagnostic = Diagnostic(.error, "bad-date", "revision entry: nope", at: SourceLocation(path: "Content/a.md", line: 3, column: 7))
        #expect(diagnostic.description == "Content/a.md:3:7: error: revision entry: nope [bad-date]")
    }
}
