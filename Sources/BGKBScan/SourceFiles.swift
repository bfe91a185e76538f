import Foundation

/// One Swift file to scan: its path as the user will see it and its text.
public struct SwiftSource: Sendable, Hashable {
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// The names of every API the scan knows. A file that mentions none of them is not parsed.
    static let apiNames = ["beginBackgroundTask", "performExpiringActivity", "BGTaskScheduler", "register(forTaskWithIdentifier",
                           "didReceiveRemoteNotification", "handleEventsForBackgroundURLSession", "BGContinuedProcessingTask"]

    /// True when the text mentions one of the APIs the scan covers.
    var mentionsCoveredAPI: Bool {
        Self.apiNames.contains { text.contains($0) }
    }
}

/// Finds the `.swift` files under the paths given on the command line.
public enum SourceFinder {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every `.swift` file under `paths` (files are taken as given, folders recursively, hidden
    /// folders and `.build` skipped), minus those matching one of `excludes`, sorted by path.
    public static func find(_ paths: [String], excluding excludes: [String]) throws -> [String] {
        let manager = FileManager.default
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Failure(description: "\(path): no such file or directory")
            }
            if !isDirectory.boolValue {
                found.append(path)
                continue
            }
            guard let enumerator = manager.enumerator(atPath: path) else {
                throw Failure(description: "\(path): cannot list the folder")
            }
            while let relative = enumerator.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") || name == "Pods" && relative == name {
                    enumerator.skipDescendants()
                    continue
                }
                if relative.hasSuffix(".swift") {
                    found.append(path == "." ? relative : (path as NSString).appendingPathComponent(relative))
                }
            }
        }
        return Array(Set(found.filter { file in !excludes.contains { Glob.matches($0, file) } })).sorted()
    }
}

/// Shell-style globs for `--exclude`: `*` within a path component, `**` across components, `?`
/// one character. A pattern without a slash matches any component (`Generated` or `*.pb.swift`).
public enum Glob {
    public static func matches(_ pattern: String, _ path: String) -> Bool {
        let components = path.split(separator: "/").map(String.init)
        if !pattern.contains("/") {
            return components.contains { matchComponent(Array(pattern), Array($0)) }
        }
        let patternParts = pattern.split(separator: "/").map(String.init)
        // A relative pattern may match from any component on (`Sources/Generated/**`).
        return (0...components.count).contains { start in
            matchParts(patternParts[...], components[start...])
        }
    }

    private static func matchParts(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            return (path.startIndex...path.endIndex).contains { matchParts(pattern.dropFirst(), path[$0...]) }
        }
        guard let head = path.first, matchComponent(Array(first), Array(head)) else { return false }
        return matchParts(pattern.dropFirst(), path.dropFirst())
    }

    private static func matchComponent(_ pattern: [Character], _ text: [Character]) -> Bool {
        var p = 0, t = 0, star = -1, mark = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1; t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p; mark = t; p += 1
            } else if star >= 0 {
                p = star + 1; mark += 1; t = mark
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
