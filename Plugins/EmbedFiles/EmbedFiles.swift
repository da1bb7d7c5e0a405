import Foundation
import PackagePlugin

/// Builds the files a module ships (the web app's page, the OpenAPI documents) into its code,
/// so an executable copied anywhere carries them: no resource bundle is looked up at run time.
///
/// A module using the plugin lists what to embed in `embedded-files.txt` beside its sources, one
/// path per line, relative to the module's folder; a folder stands for every file under it.
/// The plugin writes `EmbeddedFiles.swift`, an internal `EmbeddedFiles` enum.
@main
struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL
        let list = folder.appendingPathComponent("embedded-files.txt")
        let entries = try String(contentsOf: list, encoding: .utf8)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        let inputs = entries.flatMap { files(under: folder.appendingPathComponent($0)) }
        let prefix = folder.standardizedFileURL.path + "/"
        let names = inputs.map { String($0.standardizedFileURL.path.dropFirst(prefix.count)) }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) files in \(target.name)",
                executable: try context.tool(named: "EmbedFilesTool").url,
                arguments: [output.path, folder.path] + names,
                inputFiles: [list] + inputs,
                outputFiles: [output])
        ]
    }

    /// The regular files at or under `url`, in a stable order.
    private func files(under url: URL) -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return [url] }
        let found = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { $0 as? URL }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true } ?? []
        return found.sorted { $0.path < $1.path }
    }
}
