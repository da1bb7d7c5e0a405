import Foundation
import NoteTakerSyncProtocol
import NoteTakerKit

/// Edits a note in the user's editor ($VISUAL, else $EDITOR, else vi).
package enum Editor {
    /// Opens the note in the editor; returns the new title and body, or `nil` when the user
    /// changed nothing.
    static func edit(title: String, body: String) throws -> (title: String, body: String)? {
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-\(UUID().uuidString).md")
        let original = compose(title: title, body: body)
        do {
            // The note is readable by its owner only while it is in the temporary folder.
            guard OwnerOnly.createFile(at: file) else { throw CocoaError(.fileWriteNoPermission) }
            try original.write(to: file, atomically: false, encoding: .utf8)
        } catch {
            throw NoteTakerError.fileWriteFailed(path: file.path, reason: error.localizedDescription)
        }
        defer { try? FileManager.default.removeItem(at: file) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The editor may carry arguments ("code --wait"), so the shell splits it.
        process.arguments = ["-c", "\(editor) \"$1\"", "notetaker-editor", file.path]
        do {
            try process.run()
        } catch {
            throw CommandError("editorDidNotStart", ["editor": editor, "reason": error.localizedDescription])
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandError("editorFailed", ["editor": editor, "status": Int(process.terminationStatus)])
        }
        guard let edited = try? String(contentsOf: file, encoding: .utf8) else {
            throw CommandError("editorTextNotUTF8")
        }
        guard edited != original else { return nil }
        return parse(edited)
    }

    /// The text the editor shows: the title, a blank line, the body.
    package static func compose(title: String, body: String) -> String {
        title + "\n\n" + body
    }

    /// Reads back the editor's text: the first line is the title; the body follows the
    /// blank line after it.
    static func parse(_ text: String) -> (title: String, body: String) {
        var lines = text.components(separatedBy: "\n")
        let title = lines.removeFirst().trimmingCharacters(in: .whitespaces)
        if lines.first?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeFirst() }
        return (title, lines.joined(separator: "\n"))
    }
}
