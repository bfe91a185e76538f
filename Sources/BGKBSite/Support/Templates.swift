import Mustache

/// The Mustache templates of the less frequent pages, compiled once (the layout, rule pages,
/// timelines and word diffs are written with `HTMLWriter`). Templates are Swift string literals so an
/// installed `bgkb` needs no resource bundle. Mustache escapes every `{{value}}` for HTML (which is
/// also valid XML escaping); the only unescaped slots are `{{{...Html}}}` ones, and those are filled
/// with cmark's safe-mode output or with markup another template already escaped.
struct Templates: Sendable {
    /// Template sources by name. Each page keeps its template next to the code that fills it.
    static let sources: [String: String] = [
        "home": HomePage.template,
        "rules-index": RulesIndexPage.template,
        "rule-list": RulesIndexPage.ruleListPartial,
        "topics-index": TopicPages.indexTemplate,
        "topic": TopicPages.topicTemplate,
        "crash-codes": CrashCodesPage.template,
        "search": SearchPage.template,
        "not-found": NotFoundPage.template,
    ]

    /// Compiled once per process (the sources are literals). `SiteBuilder.compileTemplates()` lets
    /// the CLI do it on another thread while Content loads.
    static let shared = Templates()

    let library: MustacheLibrary
    /// Names of templates that failed to parse, with the parser's message.
    let errors: [String]

    /// Registered once, before any template is parsed (the pragma names it).
    private static let escaping: Void = MustacheContentTypes.register(ByteHTMLContentType(), named: ByteHTMLContentType.name)

    init() {
        _ = Self.escaping
        var library = MustacheLibrary()
        var errors: [String] = []
        for name in Self.sources.keys.sorted() {
            do {
                // Every template, partials too (a partial starts again with Mustache's own
                // escaping), escapes through `ByteHTMLContentType`.
                try library.register("{{% CONTENT_TYPE: \(ByteHTMLContentType.name)}}" + (Self.sources[name] ?? ""), named: name)
            } catch {
                errors.append("template \(name): \(error)")
            }
        }
        self.library = library
        self.errors = errors
    }

    /// Renders `object` (dictionaries and arrays of them) with the named template; empty when the
    /// template is missing, which the template test rules out.
    func render(_ name: String, _ object: [String: Any]) -> String {
        library.render(object, withTemplate: name) ?? ""
    }
}

/// Mustache's HTML escaping (`<`, `>`, `&`, `"` and `'`, Character by Character), without walking
/// Characters when it need not: text with none of those bytes is returned as it is, and ASCII text
/// (where every byte is a Character) goes through `HTMLWriter.text`, which escapes the same five. Only text beyond ASCII that holds
/// one of them goes Character by Character, since there a combining mark after `<` makes another
/// Character that Mustache leaves alone.
struct ByteHTMLContentType: MustacheContentType {
    static let name = "BGKBHTML"

    func escapeText(_ text: String) -> String {
        var special = false
        var ascii = true
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"): special = true
            case 0x80...: ascii = false
            default: break
            }
        }
        guard special else { return text }
        guard ascii else { return Self.escapeByCharacter(text) }
        // On ASCII, bytes are Characters: the pages' own byte escaping gives the same text.
        var writer = HTMLWriter(capacity: text.utf8.count + 16)
        writer.text(text)
        return writer.string
    }

    /// Mustache's own `htmlEscape`, Character by Character.
    static func escapeByCharacter(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "&": escaped += "&amp;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
