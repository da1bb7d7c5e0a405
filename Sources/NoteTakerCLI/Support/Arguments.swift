import ArgumentParser
import Foundation
import NoteTakerKit

/// The `ID` argument of commands that act on one note.
package struct NoteArgument: ParsableArguments {
    @Argument(help: "The note's id or a unique prefix.") package var id: String

    /// No id yet (ArgumentParser's requirement).
    package init() {}

    /// The note's full id.
    package func resolve(in store: NoteStore) throws -> UUID { try store.resolveNoteId(id) }
}

/// The `ID...` argument of commands that act on several notes.
struct NotesArgument: ParsableArguments {
    @Argument(help: "Ids or unique prefixes of the notes.") var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw Words.usage("nameANote") }
    }

    /// The notes' full ids.
    func resolve(in store: NoteStore) throws -> [UUID] { try ids.map { try store.resolveNoteId($0) } }
}

/// `ID NAME...`: a note and tag names.
struct NoteTagsArguments: ParsableArguments {
    @OptionGroup var note: NoteArgument
    @Argument(help: "Tag names.") var names: [String]

    func validate() throws {
        if names.isEmpty { throw Words.usage("nameATag") }
    }
}

/// The `--json` flag.
package struct JSONFlag: ParsableArguments {
    @Flag(name: .long, help: "Print JSON (fields documented in docs/cli-json.md).")
    package var json = false

    /// Text output (ArgumentParser's requirement).
    package init() {}
}
