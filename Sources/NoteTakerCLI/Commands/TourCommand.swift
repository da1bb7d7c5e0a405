import ArgumentParser
import Foundation
import NoteTakerKit

struct TourCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour",
        abstract: "Walk through NoteTaker's commands on a temporary store (your notes are not touched).")

    @Option(help: ArgumentHelp("Run the tour on this store instead of a temporary one.", valueName: "path"))
    var store: String?

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-tour-\(UUID().uuidString)")
        let path = store ?? directory.appendingPathComponent("NoteTaker.sqlite").path
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try NoteStore.open(at: URL(fileURLWithPath: path))

        /// The short id of the note with this exact title, as a user would copy it from `list`.
        func id(_ title: String) throws -> String {
            let hits = try library.search(SearchQuery("\"\(title)\"", limit: 10))
                + library.search(SearchQuery("\"\(title)\"", inTrash: true, limit: 10))
            guard let note = hits.first(where: { $0.note.title == title })?.note else { throw NoteTakerError.noteNotFound(title) }
            return TextOutput.shortId(note.id)
        }

        let steps: [(String, () throws -> [String])] = [
            (Words.text("tourFolders"), { ["folder", "new", "Work"] }),
            ("", { ["folder", "new", "Projects", "--parent", "Work"] }),
            (Words.text("tourNotes"), {
                ["new", "Café meeting", "--body", "Discuss the **naïve** roadmap.\n- [ ] send agenda", "--folder", "Work/Projects", "--tag", "Meetings"]
            }),
            ("", { ["new", "Groceries", "--body", "- milk\n- crème fraîche", "--tag", "home"] }),
            ("", { ["new", "Reading list", "--body", "The Left Hand of Darkness", "--tag", "Home"] }),
            (Words.text("tourPinned"), { ["pin", try id("Groceries")] }),
            ("", { ["list"] }),
            (Words.text("tourSearch"), { ["search", "creme"] }),
            ("", { ["search", "cafe", "--folder", "Work"] }),
            (Words.text("tourTags"), { ["tag", "list"] }),
            ("", { ["folder", "list"] }),
            (Words.text("tourTrash"), { ["rm", try id("Reading list")] }),
            ("", { ["trash"] }),
            ("", { ["restore", try id("Reading list")] }),
            (Words.text("tourJSON"), { ["show", try id("Groceries"), "--json"] }),
            ("", { ["stats"] }),
        ]
        for (explanation, arguments) in steps {
            if !explanation.isEmpty { print("\n# \(explanation)") }
            let words = try arguments()
            print("$ notetaker " + words.map(Self.shellQuoted).joined(separator: " "))
            fflush(nil)
            let status = NoteTakerCommand.main(arguments: words + ["--store", path])
            fflush(nil)
            guard status == 0 else { throw ExitCode(status) }
        }
        print("\n" + Words.text("tourEnd", ["path": NoteStore.defaultLocation().path]))
    }

    private static func shellQuoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./".contains($0) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
