import Foundation

// Writes a Swift file holding the named files, base64-encoded, keyed by their path relative to
// the module's folder. Called by the EmbedFiles plugin, which lists the files:
//   EmbedFilesTool OUTPUT MODULE-FOLDER FILE...

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: EmbedFilesTool OUTPUT MODULE-FOLDER FILE...\n".utf8))
    exit(64)
}
let root = URL(fileURLWithPath: arguments[1], isDirectory: true)

var newest = 0.0
var lines: [String] = []
for name in arguments.dropFirst(2).sorted() {
    let url = root.appendingPathComponent(name)
    let data = try Data(contentsOf: url)
    let modified = (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate)?
        .timeIntervalSince1970 ?? 0
    newest = max(newest, modified.rounded(.down))
    lines.append("        \"\(name)\": \"\(data.base64EncodedString())\",")
}

let source = """
    // Written by the EmbedFiles plugin at build time; do not edit.
    import Foundation

    /// The files this module ships, built into its code.
    enum EmbeddedFiles {
        /// When the newest of them last changed.
        static let modified = Date(timeIntervalSince1970: \(newest))

        /// Each file's bytes, by its path relative to the module's folder.
        static let files: [String: Data] = encoded.compactMapValues { Data(base64Encoded: $0) }

        private static let encoded: [String: String] = [
    \(lines.joined(separator: "\n"))
        ]
    }

    """
try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[0]), options: .atomic)
