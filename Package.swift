// swift-tools-version: 6.0
import PackageDescription

// Dependencies point one way: CCmark → BGKBMarkdown → BGKBContent (Content/ → model);
// BGKBEngine → BGKBExamples → BGKBSite (Site/); BGKBEngine → BGKBQuestions → BGKBQuiz →
// BGKBSite (the browser quiz asks the terminal quiz's bank); all of them → bgkb. BGKBEngine and
// swift-syntax → BGKBScan → bgkb-scan, which `bgkb scan` runs. BGKBModel is plain value types shared by all; only the `bgkb` executable prints
// or reads the environment. The benchmarks (Benchmarks/) and the fuzz targets
// (Fuzz/) are packages of their own that depend on this one by path, through the `BGKB` library.

// tcmalloc in place of glibc's malloc, on Linux: a build allocates and frees many small blocks,
// and tcmalloc serves them faster. Linked ahead of libc, it serves every allocation in the
// process. The benchmarks link it too, so they time what ships.
let tcmalloc = LinkerSetting.linkedLibrary("tcmalloc_minimal", .when(platforms: [.linux]))

let package = Package(
    name: "bgkb",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "bgkb", targets: ["bgkb"]),
        /// `bgkb scan`'s engine, a product of its own so swift-syntax stays out of `bgkb`'s first build.
        .executable(name: "bgkb-scan", targets: ["bgkb-scan"]),
        /// For the benchmark and fuzz packages: the model, the Content pipeline, the engine and its
        /// reference scenarios.
        .library(name: "BGKB", targets: ["BGKBModel", "BGKBContent", "BGKBEngine", "ScenarioSamples"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        /// The only module that sees cmark's C API: Markdown text in, Swift values out.
        .target(name: "BGKBMarkdown", dependencies: ["CCmark", "BGKBModel"]),
        /// Value types: documents, versions, rules, sources, examples, diagnostics. No I/O.
        .target(name: "BGKBModel"),
        /// Content/ → model: front matter, points, revision history, versions, conflicts, lint.
        .target(name: "BGKBContent", dependencies: ["BGKBMarkdown", "BGKBModel", "Yams"]),
        /// The deterministic simulator of iOS background execution and its scenario language.
        .target(name: "BGKBEngine", dependencies: ["BGKBModel"]),
        /// Runs Content's examples through the engine for a build, all at once or rule by rule,
        /// and keeps what earlier builds found (the verdict cache).
        .target(name: "BGKBExamples", dependencies: ["BGKBModel", "BGKBEngine"]),
        /// Site/ generator: one function per page, written with HTMLWriter.
        .target(name: "BGKBSite", dependencies: ["BGKBModel", "BGKBEngine", "BGKBExamples", "BGKBMarkdown", "BGKBQuestions", "BGKBQuiz"]),
        /// Question bank, scheduler and progress store for `bgkb quiz`.
        /// Questions derived from the corpus (outcomes from the engine), validated as a bank.
        .target(name: "BGKBQuestions", dependencies: ["BGKBModel", "BGKBEngine"]),
        .target(name: "BGKBQuiz", dependencies: ["BGKBModel", "BGKBQuestions"], plugins: ["EmbedContentPlugin"]),
        /// Build tool: Content/ → pipeline → engine → checked question bank, embedded in BGKBQuiz as Swift.
        .executableTarget(name: "EmbedContent", dependencies: ["BGKBContent", "BGKBQuestions", "BGKBModel"]),
        .plugin(name: "EmbedContentPlugin", capability: .buildTool(), dependencies: ["EmbedContent"]),
        .executableTarget(
            name: "bgkb",
            dependencies: [
                "BGKBContent", "BGKBEngine", "BGKBExamples", "BGKBSite", "BGKBQuiz", "BGKBModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [tcmalloc]
        ),
        /// The engine's reference scenarios, from the sources: for the tests and the engine benchmark.
        .target(name: "ScenarioSamples", dependencies: ["BGKBModel"], path: "Tests/ScenarioSamples"),
        .testTarget(name: "BGKBContentTests", dependencies: ["BGKBContent", "BGKBMarkdown", "BGKBModel", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "BGKBEngineTests", dependencies: ["BGKBEngine", "BGKBModel", "ScenarioSamples"]),
        .testTarget(name: "BGKBExamplesTests", dependencies: ["BGKBExamples", "BGKBContent", "BGKBEngine", "BGKBModel"]),
        .testTarget(name: "BGKBSiteTests", dependencies: ["BGKBSite", "BGKBExamples", "BGKBContent", "BGKBEngine", "BGKBModel", "BGKBMarkdown", "BGKBQuiz", "BGKBQuestions",
                                                       "ScenarioSamples"]),
        .testTarget(name: "BGKBQuizTests", dependencies: ["BGKBQuiz", "BGKBQuestions", "BGKBModel", "BGKBContent", "BGKBEngine", "ScenarioSamples"]),
        /// Every example in Content/ as its own test case, named `rule-id:line`.
        .testTarget(name: "ContentExampleTests", dependencies: ["BGKBContent", "BGKBEngine", "BGKBModel"]),
        /// `bgkb scan`: Swift sources → scenarios → engine → findings (README "Scanning an app").
        .target(name: "BGKBScan", dependencies: ["BGKBEngine", "BGKBModel",
                                                .product(name: "SwiftSyntax", package: "swift-syntax"),
                                                .product(name: "SwiftParser", package: "swift-syntax")]),
        .executableTarget(name: "bgkb-scan", dependencies: ["BGKBScan", "BGKBContent", "BGKBModel", .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          linkerSettings: [tcmalloc]),
        .testTarget(name: "BGKBScanTests", dependencies: ["BGKBScan", "BGKBEngine", "BGKBModel", "BGKBContent"]),
    ]
)
