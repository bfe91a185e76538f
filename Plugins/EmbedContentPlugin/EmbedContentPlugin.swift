import Foundation
import PackagePlugin

/// Builds the question bank from the package's Content/ at build time (pipeline, then engine) and
/// embeds it in the target as Swift, so `bgkb quiz` carries its knowledge: an installed release
/// binary works from any directory without finding Content/ on disk, starts without parsing or
/// simulating, and the embedded bank can never be staler than the build.
@main
struct EmbedContentPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let content = context.package.directoryURL.appending(path: "Content")
        let output = context.pluginWorkDirectoryURL.appending(path: "GeneratedContentFiles.swift")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: content, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where ["md", "yml"].contains(url.pathExtension) {
                inputs.append(url)
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding Content (\(inputs.count) files)",
                executable: try context.tool(named: "EmbedContent").url,
                arguments: [content.path, output.path],
                inputFiles: inputs.sorted { $0.path < $1.path },
                outputFiles: [output]
            ),
        ]
    }
}
