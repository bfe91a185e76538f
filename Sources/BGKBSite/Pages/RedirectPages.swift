import BGKBModel

/// Small pages at addresses the site used to have, each sending the reader on to the page that
/// replaced it: a meta refresh, a canonical link, and a plain link for anything that follows
/// neither. Today these are the misconception pages, renamed `myth-…`.
enum RedirectPages {
    /// Old path → new path, for every rule whose page moved, leaving out any old path a page
    /// still uses.
    static func moves(_ context: SiteContext) -> [(old: String, new: String, title: String)] {
        var used = Set(context.corpus.rules.compactMap { context.rulePath($0.id) })
        var moves: [(old: String, new: String, title: String)] = []
        for rule in context.corpus.rules {
            guard let path = context.rulePath(rule.id) else { continue }
            let old = SitePaths.rule(Slug.make(rule.id))
            guard old != path, used.insert(old).inserted else { continue }
            moves.append((old, path, SiteContext.heading(rule)))
        }
        return moves
    }

    static func render(_ context: SiteContext) -> StepOutput {
        var output = StepOutput()
        for move in moves(context) {
            output.files[move.old] = page(from: move.old, to: move.new, title: move.title)
        }
        return output
    }

    static func page(from old: String, to new: String, title: String) -> String {
        var w = HTMLWriter(capacity: 1024)
        let href = SitePaths.link(from: old, to: new)
        w.markup("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Moved: ")
        w.text(title)
        w.markup(" · bgkb</title>\n<meta name=\"robots\" content=\"noindex\">\n<meta http-equiv=\"refresh\" content=\"0; url=")
        w.text(href)
        w.markup("\">\n<link rel=\"canonical\" href=\""); w.text(href)
        // No full stop after the link: the title may end in its own.
        w.markup("\">\n</head>\n<body>\n<p>This page has moved. It is now at</p>\n<p><a href=\""); w.text(href); w.markup("\">")
        w.text(title); w.markup("</a></p>\n</body>\n</html>\n")
        return w.string
    }
}
