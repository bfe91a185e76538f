#if !FUZZING
import Foundation
import BGKBEngine
import BGKBModel

/// Without libFuzzer (a plain `swift build`), the target replays inputs given as file paths, so a
/// crash file from a fuzzing run can be debugged with an ordinary build. `--compare FILES` reruns
/// only the reductions' comparison over a corpus (a fuzzing run's kept inputs) and says how much
/// of it was compared, for the figures the README gives.
@main
struct Replay {
    static func main() {
        if CommandLine.arguments.dropFirst().first == "--compare" {
            compare(Array(CommandLine.arguments.dropFirst(2)))
            return
        }
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                continue
            }
            let bytes = [UInt8](data)
            _ = bytes.withUnsafeBufferPointer { fuzzScenario($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
            print("\(path): ok")
        }
    }
}

/// Explores every input that parses whole both ways (see `fuzzScenario`) and counts those whose
/// space fit, and the distinct outcomes compared; a lost outcome or changed verdict stops with its path.
private func compare(_ paths: [String]) {
    var parsed = 0, compared = 0, outcomes = 0
    for path in paths {
        guard let data = FileManager.default.contents(atPath: path),
              let scenario = ScenarioParser.parse(String(decoding: data, as: UTF8.self),
                                                  at: SourceLocation(path: path, line: 1, column: 1)).0 else { continue }
        parsed += 1
        switch compareReductions(scenario) {
        case let .same(count)?:
            compared += 1
            outcomes += count
        case let .differs(problem)?:
            preconditionFailure("\(path): \(problem)")
        case nil:
            continue
        }
    }
    print("\(paths.count) inputs, \(parsed) parse, \(compared) explored whole both ways, \(outcomes) distinct outcomes compared: none lost")
}
#endif
