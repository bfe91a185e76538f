import BGKBContent

/// libFuzzer's entry point: any bytes as a Content document (and, by the first byte's low bit, as
/// sources.yml too). The pipeline must report problems as diagnostics, never crash. The bytes are
/// also read as a YAML block, where `YAMLSubset` must agree with Yams.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContent(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let asSources = bytes.first.map { $0 & 1 == 1 } ?? false
    let file = ContentFile(path: "Content/fuzz.md", bytes: bytes)
    let sources = asSources ? ContentFile(path: "Content/sources.yml", bytes: bytes) : nil
    _ = ContentAssembler.assemble(documents: [file, ContentFile(path: "Content/documents/fuzz/b.md", bytes: bytes)], sources: sources, topics: sources)
    // The YAML subset read without libyaml must read exactly what Yams reads, or turn it down.
    if let text = String(validating: bytes, as: UTF8.self), let problem = YAMLSubsetCheck.mismatch(text) {
        fatalError("\(problem): \(text.debugDescription)")
    }
    return 0
}
