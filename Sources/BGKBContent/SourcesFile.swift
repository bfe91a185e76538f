import BGKBModel
import Yams

/// `sources.yml` and `topics.yml`: lists of mappings, every field checked.
enum SourcesFile {
    static func read(_ file: ContentFile, diagnostics: inout Diagnostics) -> [Source] {
        let block = YAMLBlock(path: file.path, firstLine: 1, columnOffset: 0, text: file.decoded(diagnostics: &diagnostics))
        guard let node = block.compose(diagnostics: &diagnostics, what: file.path) else { return [] }
        guard let items = node.sequence else {
            diagnostics.error("bad-field-value", "\(file.path) must be a list of sources", at: block.location(node.mark))
            return []
        }
        return items.compactMap { item in
            guard let reader = FieldReader(item, block: block, what: "a source", allowed: ["id", "title", "author", "publisher", "url", "reliability", "summary"],
                                           diagnostics: &diagnostics) else { return nil }
            guard let id = reader.string("id", diagnostics: &diagnostics), let title = reader.string("title", diagnostics: &diagnostics) else {
                diagnostics.error("bad-field-value", "a source needs an `id` and a `title`", at: block.location(item.mark))
                return nil
            }
            if let url = reader.string("url", diagnostics: &diagnostics), !(url.hasPrefix("https://") || url.hasPrefix("http://")) {
                diagnostics.error("bad-field-value", "`url` must start with https:// or http://", at: reader.location("url"))
            }
            return Source(id: id, title: title, author: reader.string("author", diagnostics: &diagnostics),
                          publisher: reader.string("publisher", diagnostics: &diagnostics), url: reader.string("url", diagnostics: &diagnostics),
                          reliability: reader.enumValue("reliability", as: Source.Reliability.self, diagnostics: &diagnostics) ?? .primary,
                          summary: reader.string("summary", diagnostics: &diagnostics) ?? "", location: block.location(item.mark))
        }
    }
}

enum TopicsFile {
    static func read(_ file: ContentFile, diagnostics: inout Diagnostics) -> [Topic] {
        let block = YAMLBlock(path: file.path, firstLine: 1, columnOffset: 0, text: file.decoded(diagnostics: &diagnostics))
        guard let node = block.compose(diagnostics: &diagnostics, what: file.path) else { return [] }
        guard let items = node.sequence else {
            diagnostics.error("bad-field-value", "\(file.path) must be a list of topics", at: block.location(node.mark))
            return []
        }
        return items.compactMap { item in
            guard let reader = FieldReader(item, block: block, what: "a topic", allowed: ["id", "title", "summary", "keywords"], diagnostics: &diagnostics),
                  let id = reader.string("id", diagnostics: &diagnostics), let title = reader.string("title", diagnostics: &diagnostics) else {
                return nil
            }
            return Topic(id: id, title: title, summary: reader.string("summary", diagnostics: &diagnostics) ?? "",
                         keywords: reader.strings("keywords", diagnostics: &diagnostics).map(\.0))
        }
    }
}
