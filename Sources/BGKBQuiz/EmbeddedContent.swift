/// Content/ as it was when this binary was built (the EmbedContent build plugin writes
/// `generatedFiles`). The quiz runs on it unless `--content DIR` says otherwise.
public enum EmbeddedContent {
    public struct File: Sendable {
        /// `Content/documents/notes.md`: relative, so diagnostics read the same as from a checkout.
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    public static var files: [File] { generatedFiles }

    /// The Markdown documents (everything but the two YAML files).
    public static var documents: [File] { files.filter { $0.path.hasSuffix(".md") } }
    public static var sources: File? { files.first { $0.path == "Content/sources.yml" } }
    public static var topics: File? { files.first { $0.path == "Content/topics.yml" } }
}
