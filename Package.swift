// swift-tools-version: 6.0
import PackageDescription

// Dependencies point one way: CCmark → BGKBMarkdown → BGKBContent → (engine, site, quiz) → bgkb.
// BGKBModel is plain value types shared by all of them; only the `bgkb` executable prints or
// reads the environment.

// tcmalloc in place of glibc's malloc, on Linux: a first build allocates and frees tens of millions
// of small blocks, and glibc's allocator took about a tenth of its CPU. Linked ahead of libc, it
// serves every allocation in the process. The benchmarks link it too, so they time what ships.
// (.ci/bench/HISTORY.md has the figures, and why not mimalloc or jemalloc: the section on 40aa615 to ff1bae1.)
let tcmalloc = LinkerSetting.linkedLibrary("tcmalloc_minimal", .when(platforms: [.linux]))

let package = Package(
    name: "bgkb",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "bgkb", targets: ["bgkb"]),
        /// `bgkb scan`'s engine, a product of its own so swift-syntax stays out of `bgkb`'s first build.
        .executable(name: "bgkb-scan", targets: ["bgkb-scan"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        /// The only module that sees cmark's C API: Markdown text in, Swift values out.
        .target(name: "BGKBMarkdown", dependencies: ["CCmark"]),
        /// Value types: documents, versions, rules, sources, examples, diagnostics. No I/O.
        .target(name: "BGKBModel"),
        /// Content/ → model: front matter, points, revision history, versions, conflicts, lint.
        .target(name: "BGKBContent", dependencies: ["BGKBMarkdown", "BGKBModel", "Yams"]),
        /// The deterministic simulator of iOS background execution and its scenario language.
        .target(name: "BGKBEngine", dependencies: ["BGKBModel"]),
        /// Site/ generator.
        .target(
            name: "BGKBSite",
            dependencies: [
                "BGKBModel", "BGKBEngine", "BGKBMarkdown",
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
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
                "BGKBContent", "BGKBEngine", "BGKBSite", "BGKBQuiz", "BGKBModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [tcmalloc]
        ),
        /// libFuzzer entry for the Content parser: `swift build --product FuzzContent --sanitize=fuzzer`.
        .executableTarget(name: "FuzzContent", dependencies: ["BGKBContent"]),
        /// Times the Content pipeline in process (median of many loads): `.ci/bench/run.sh` runs it.
        .executableTarget(name: "BenchContent", dependencies: ["BGKBContent", "BGKBEngine", "BGKBModel"], linkerSettings: [tcmalloc]),
        .testTarget(name: "BGKBContentTests", dependencies: ["BGKBContent", "BGKBMarkdown", "BGKBModel", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "BGKBSiteTests", dependencies: ["BGKBSite", "BGKBContent", "BGKBEngine", "BGKBModel", "BGKBMarkdown",
                                                       .product(name: "Mustache", package: "swift-mustache")]),
        /// libFuzzer entry for the scenario parser: `swift build --scratch-path .build-fuzz --product FuzzScenario --sanitize=fuzzer`.
        .executableTarget(name: "FuzzScenario", dependencies: ["BGKBEngine", "BGKBModel"], linkerSettings: [.linkedLibrary("m")]),
        /// Simulated events per second and wall time of checking scenarios (run in release).
        .executableTarget(name: "BenchEngine", dependencies: ["BGKBEngine", "BGKBModel", "BGKBContent"], linkerSettings: [.linkedLibrary("m"), tcmalloc]),
        .testTarget(name: "BGKBEngineTests", dependencies: ["BGKBEngine", "BGKBModel"]),
        /// Every example in Content/ as its own test case, named `rule-id:line`.
        .testTarget(name: "ContentExampleTests", dependencies: ["BGKBContent", "BGKBEngine", "BGKBModel"]),
        /// `bgkb scan`: Swift sources → scenarios → engine → findings (README "Scanning an app").
        .target(name: "BGKBScan", dependencies: ["BGKBEngine", "BGKBModel",
                                                .product(name: "SwiftSyntax", package: "swift-syntax"),
                                                .product(name: "SwiftParser", package: "swift-syntax")]),
        .executableTarget(name: "bgkb-scan", dependencies: ["BGKBScan", "BGKBContent", "BGKBModel", .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          linkerSettings: [tcmalloc]),
        .testTarget(name: "BGKBScanTests", dependencies: ["BGKBScan", "BGKBEngine", "BGKBModel", "BGKBContent"]),
        .testTarget(name: "BGKBQuizTests", dependencies: ["BGKBQuiz", "BGKBQuestions", "BGKBModel", "BGKBContent", "BGKBEngine"]),
    ]
)
