#if !FUZZING
import Foundation

/// Without libFuzzer (a plain `swift build`), the target replays inputs given as file paths, so a
/// crash file from a fuzzing run can be debugged with an ordinary build.
@main
struct Replay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                continue
            }
            let bytes = [UInt8](data)
            _ = bytes.withUnsafeBufferPointer { fuzzContent($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
            print("\(path): ok")
        }
    }
}
#endif
