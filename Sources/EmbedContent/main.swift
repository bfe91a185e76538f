import Foundation

// Build tool: writes Content/ (every *.md except README.md, plus sources.yml and topics.yml) as a
// Swift array of files, for BGKBQuiz's `EmbeddedContent`. Usage: EmbedContent CONTENT_DIR OUTPUT.

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: EmbedContent CONTENT_DIR OUTPUT.swift\n".utf8))
    exit(2)
}
let root = URL(fileURLWithPath: arguments[1]).standardizedFileURL
let output = arguments[2]

var files: [(path: String, bytes: Data)] = []
if let walker = FileManager.default.enumerator(atPath: root.path) {
    while let relative = walker.nextObject() as? String {
        let name = (relative as NSString).lastPathComponent
        if name.hasPrefix(".") || name.lowercased() == "readme.md" { continue }
        guard relative.hasSuffix(".md") || relative == "sources.yml" || relative == "topics.yml" else { continue }
        guard let data = FileManager.default.contents(atPath: root.path + "/" + relative) else {
            FileHandle.standardError.write(Data("\(relative): error: cannot read the file\n".utf8))
            exit(1)
        }
        files.append(("Content/" + relative, data))
    }
}
files.sort { $0.path < $1.path }

/// A file as a Swift expression giving its bytes: a string literal when it is valid UTF-8 (quick
/// for the compiler even when long), else an exact byte array, so the pipeline reports bad
/// bytes just as it would reading from disk.
func literal(_ data: Data) -> String {
    guard let text = String(data: data, encoding: .utf8) else {
        return "[" + data.map(String.init).joined(separator: ",") + "]"
    }
    var escaped = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": escaped += "\\\\"
        case "\"": escaped += "\\\""
        case "\n": escaped += "\\n"
        case "\t": escaped += "\\t"
        case "\r": escaped += "\\r"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7f {
                escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
    }
    return "Array(\"" + escaped + "\".utf8)"
}

var source = """
// Generated at build time by the EmbedContent plugin from Content/. Do not edit.

extension EmbeddedContent {
    static let generatedFiles: [EmbeddedContent.File] = [

"""
for file in files {
    source += "        EmbeddedContent.File(path: \"\(file.path)\", bytes: \(literal(file.bytes))),\n"
}
source += "    ]\n}\n"

do {
    try source.write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("\(output): error: \(error)\n".utf8))
    exit(1)
}
