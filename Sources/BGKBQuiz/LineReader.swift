/// Where answers come from: the CLI reads standard input, tests hand in byte chunks.
public protocol ByteSource {
    /// Up to `maximum` bytes; `.end` at end of input; `.interrupted` when Ctrl-C stopped the read.
    mutating func read(maximum: Int) -> ByteRead
}

public enum ByteRead: Equatable, Sendable {
    case bytes([UInt8])
    case end
    case interrupted
}

/// One line of input, as the session sees it.
public enum InputLine: Equatable, Sendable {
    /// The line's bytes without the newline; not necessarily UTF-8.
    case line([UInt8])
    /// A line longer than the limit: its bytes were dropped up to the newline.
    case tooLong
    /// End of input right after text typed without Enter (`b` then Ctrl-D): not a line, so
    /// never taken as an answer.
    case unfinished([UInt8])
    case end
    case interrupted
}

/// Splits input into lines without ever holding more than `limit` bytes of one: a megabyte pasted
/// at the prompt is read and thrown away, not kept.
public struct LineReader<Source: ByteSource> {
    public var source: Source
    public let limit: Int
    private var buffer: [UInt8] = []
    private var overflowing = false
    private var finished = false

    public init(source: Source, limit: Int = 1024) {
        self.source = source
        self.limit = limit
    }

    public mutating func next() -> InputLine {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                if overflowing {
                    overflowing = false
                    return .tooLong
                }
                return .line(line)
            }
            if buffer.count > limit {
                overflowing = true
                buffer.removeAll(keepingCapacity: true)
            }
            if finished {
                // Text without a newline before the end is unfinished, not a line; then the end.
                if overflowing {
                    overflowing = false
                    return .tooLong
                }
                if !buffer.isEmpty {
                    defer { buffer.removeAll() }
                    return .unfinished(buffer)
                }
                return .end
            }
            switch source.read(maximum: 4096) {
            case let .bytes(bytes):
                if bytes.isEmpty { finished = true } else { buffer += bytes }
            case .end:
                finished = true
            case .interrupted:
                return .interrupted
            }
        }
    }
}
