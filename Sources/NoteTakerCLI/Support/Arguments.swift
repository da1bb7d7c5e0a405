import ArgumentParser
import Foundation
import NoteTakerKit

/// The `ID` argument of commands that act on one note.
struct NoteArgument: ParsableArguments {
    @Argument(help: "The note's id or a unique prefix.") var id: String

    /// The note's full id.
    func resolve(in store: NoteStore) throws -> UUID { try store.resolveNoteId(id) }
}

/// The `ID...` argument of commands that act on several notes.
struct NotesArgument: ParsableArguments {
    @Argument(help: "Ids or unique prefixes of the notes.") var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Name at least one note.") }
    }

    /// The notes' full ids.
    func resolve(in store: NoteStore) throws -> [UUID] { try ids.map { try store.resolveNoteId($0) } }
}

/// `ID NAME...`: a note and tag names.
struct NoteTagsArguments: ParsableArguments {
    @OptionGroup var note: NoteArgument
    @Argument(help: "Tag names.") var names: [String]

    func validate() throws {
        if names.isEmpty { throw ValidationError("Name at least one tag.") }
    }
}

/// The `--json` flag.
struct JSONFlag: ParsableArguments {
    @Flag(name: .long, help: "Print JSON (fields documented in docs/cli-json.md).")
    var json = false
}

/// "1 note", "2 notes".
func notesPhrase(_ count: Int) -> String {
    "\(count) note\(count == 1 ? "" : "s")"
}
