import ArgumentParser

/// `bgkb`: the iOS background-execution knowledge base.
@main
struct BGKB: ParsableCommand {
    static let version = "0.1.0"

    // Every subcommand spells out its `commandName`: derived from the type's name, it would cost
    // a reflection of every subcommand's type at each start.
    static let configuration = CommandConfiguration(
        commandName: "bgkb",
        abstract: "The iOS background-execution knowledge base: checked rules, simulated examples, a site and a quiz.",
        discussion: "Content lives in Markdown under Content/ (see Content/README.md). Start with `bgkb lint`, then `bgkb list`.",
        version: version,
        subcommands: [Lint.self, List.self, Show.self, Conflicts.self, Check.self, Build.self, Quiz.self, Scan.self]
    )
}
