import BGKBModel
import Foundation

/// The one place that prints diagnostics: `path:line:column: error: message [id]`, coloured only
/// on a terminal and never when NO_COLOR is set or TERM is dumb.
struct DiagnosticPrinter {
    let handle: FileHandle
    let colour: Bool

    static let standardError = DiagnosticPrinter(handle: .standardError, descriptor: STDERR_FILENO)
    static let standardOutput = DiagnosticPrinter(handle: .standardOutput, descriptor: STDOUT_FILENO)

    init(handle: FileHandle, descriptor: Int32) {
        self.handle = handle
        let environment = ProcessInfo.processInfo.environment
        colour = isatty(descriptor) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    func print(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { print(diagnostic) }
    }

    func print(_ diagnostic: Diagnostic) {
        var text = diagnostic.description
        if colour {
            let severity = diagnostic.severity.rawValue
            let code = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;33m"
            text = text.replacingOccurrences(of: "\(severity):", with: "\(code)\(severity):\u{1B}[0m", options: [], range: text.range(of: "\(severity):"))
        }
        print(line: text)
    }

    func print(line: String) {
        handle.write(Data((line + "\n").utf8))
    }
}
