// swift-tools-version: 6.0
import PackageDescription

// The benchmarks, a package of their own beside bgkb's (which they depend on by path), so that
// `swift build` and `swift test` at the top level do not compile them. Run them in release:
//     swift build --package-path Benchmarks -c release
// `.ci/bench/run.sh` builds and runs BenchContent; BenchEngine is run by hand (see README).

// As in bgkb's own package: the benchmarks allocate through the allocator bgkb ships with.
let tcmalloc = LinkerSetting.linkedLibrary("tcmalloc_minimal", .when(platforms: [.linux]))

let package = Package(
    name: "bgkb-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "bgkb", path: ".."),
    ],
    targets: [
        /// Times the Content pipeline in process (median of many loads).
        .executableTarget(name: "BenchContent", dependencies: [.product(name: "BGKB", package: "bgkb")], linkerSettings: [tcmalloc]),
        /// Simulated events per second and wall time of checking scenarios.
        .executableTarget(name: "BenchEngine", dependencies: [.product(name: "BGKB", package: "bgkb")],
                          linkerSettings: [.linkedLibrary("m"), tcmalloc]),
    ]
)
