// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for the Content parser and the scenario parser, a package of their own beside
// bgkb's (which they depend on by path), so that `swift build` and `swift test` at the top level
// do not compile them. Built with the fuzzer (from the top of the repository):
//     swift build --package-path Fuzz --scratch-path .build-fuzz --product FuzzContent --sanitize=fuzzer -Xswiftc -DFUZZING
// Without `-DFUZZING` each is an ordinary executable that replays the files named on its command
// line, so a crash the fuzzer found can be debugged in a normal build.

let package = Package(
    name: "bgkb-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "bgkb", path: ".."),
    ],
    targets: [
        /// Any bytes as a Content document (and as sources.yml); the YAML subset against Yams.
        .executableTarget(name: "FuzzContent", dependencies: [.product(name: "BGKB", package: "bgkb")]),
        /// Any bytes as a scenario: parsed, run, explored, and the explorer's orders compared.
        .executableTarget(name: "FuzzScenario", dependencies: [.product(name: "BGKB", package: "bgkb")],
                          linkerSettings: [.linkedLibrary("m")]),
    ]
)
