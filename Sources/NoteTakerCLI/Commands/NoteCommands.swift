import ArgumentParser
import Foundation
import NoteTakerKit

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new", abstract: "Create a note and print its id.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The note's title.") var title: String
    @Option(parsing: .unconditional, help: "The Markdown body.") var body: String?
    @Flag(help: "Read the body from standard input.") var stdin = false
    @Option(help: "The folder to file the note in (name, path or id).") var folder: String?
    @Option(name: .customLong("tag"), help: "A tag to add; repeat for several.") var tags: [String] = []
    @Flag(help: "Pin the note.") var pin = false
    @OptionGroup var output: JSONFlag

    func validate() throws {
        if body != nil && stdin { throw Words.usage("bodyOrStdin") }
    }

    func run() throws {
        let store = try storeOptions.open()
        let text = stdin ? StandardInput.readAll() : (body ?? "")
        let note = try store.createNote(NoteDraft(
            title: title, body: text, isPinned: pin, folderId: try store.folderId(folder), tags: tags))
        if output.json { try JSONOutput.print(NoteJSON(note: note)) } else { print(note.id.key) }
    }
}

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List notes: pinned first, then the most recently modified (or --sort).")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Only notes in this folder.") var folder: String?
    @Flag(help: "With --folder: include the notes of its subfolders.") var subfolders = false
    @Option(help: "Only notes with this tag.") var tag: String?
    @Flag(help: "Only pinned notes.") var pinned = false
    @Flag(help: "Only notes modified in the last 7 days.") var recent = false
    @Option(help: "After the pinned notes: modified (newest first), created (newest first) or title.") var sort: NoteQuery.Order = .modified
    @Option(help: "How many notes to show (1-1000).") var limit = 50
    @Option(help: "How many notes to skip.") var offset = 0
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.openForReading()
        let notes = try store.notes(NoteQuery(
            folderId: try store.folderId(folder), includeSubfolders: subfolders, tag: tag,
            pinnedOnly: pinned, recentOnly: recent, order: sort, limit: limit, offset: offset))
        if output.json { try JSONOutput.print(notes.map { NoteJSON(note: $0) }) } else { TextOutput.printNotes(notes, empty: Words.text("noNotes")) }
    }
}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a note.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.openForReading()
        let note = try store.note(id: try self.note.resolve(in: store))
        // In a shared folder, who wrote the text as it is now, when another account.
        let author = try store.lastAuthor(of: note.id)
        if output.json { return try JSONOutput.print(NoteJSON(note: note, editedBy: author)) }
        var fields: [(String, String)] = [
            ("id", note.id.key),
            ("created", TextOutput.dateTime(note.createdAt)),
            ("modified", TextOutput.dateTime(note.modifiedAt)),
        ]
        if let author { fields.append(("editedBy", author)) }
        if let folderId = note.folderId { fields.append(("folder", try store.folderPath(id: folderId))) }
        if !note.tags.isEmpty { fields.append(("tags", note.tags.joined(separator: ", "))) }
        if note.isPinned { fields.append(("pinned", Words.text("yes"))) }
        if let trashedAt = note.trashedAt { fields.append(("trashed", TextOutput.dateTime(trashedAt))) }
        let syncError = note.sync.errorMessage.map { " (\($0))" } ?? ""
        fields.append(("sync", Words.text("syncStatus_\(note.sync.status.rawValue)") + syncError))
        for attachment in note.attachments {
            fields.append(("attached", "\(TextOutput.shortId(attachment.id))  \(attachment.fileName)  \(TextOutput.byteCount(attachment.fileSize))"))
        }
        print("# \(TextOutput.title(note.title))")
        TextOutput.printFields(fields.map { (Words.text("field_\($0.0)"), $0.1) }, column: 11)
        print("")
        print(note.body)
    }
}

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a note's title or body; with neither option, open it in $EDITOR.",
        discussion: "In the editor, the first line is the title and the text after the first blank line is the body.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @Option(parsing: .unconditional, help: "The new title.") var title: String?
    @Option(parsing: .unconditional, help: "The new Markdown body.") var body: String?
    @Flag(help: "Read the new body from standard input.") var stdin = false

    func validate() throws {
        if body != nil && stdin { throw Words.usage("bodyOrStdin") }
    }

    func run() throws {
        let store = try storeOptions.open()
        let noteId = try note.resolve(in: store)
        if title == nil && body == nil && !stdin {
            let note = try store.note(id: noteId)
            guard let edited = try Editor.edit(title: note.title, body: note.body) else {
                return Terminal.printNotice(Words.text("noChanges"))
            }
            // Made from the note as it was when the editor opened: merged with whatever
            // changed it meanwhile (another process, sync), never written over it.
            let saved = try store.changeNote(id: noteId, NoteChanges(title: edited.title, body: edited.body, base: NoteBase(note)))
            if saved.sync.status == .conflict {
                Terminal.printNotice(Words.text("editConflicted"))
            } else if saved.title != edited.title || saved.body != edited.body {
                Terminal.printNotice(Words.text("editMerged"))
            }
            return
        }
        _ = try store.updateNote(id: noteId, title: title, body: stdin ? StandardInput.readAll() : body)
    }
}

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Move notes to the trash (kept 30 days; see `notetaker restore`).")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var notes: NotesArgument

    func run() throws {
        let store = try storeOptions.open()
        let count = try store.trashNotes(ids: try notes.resolve(in: store))
        Terminal.printNotice(Words.text("movedToTrash", ["count": count]))
    }
}

/// `pin` and `unpin`: the same command but for the value it sets.
protocol PinningCommand: ParsableCommand {
    var storeOptions: StoreOptions { get }
    var note: NoteArgument { get }
    static var pinned: Bool { get }
}

extension PinningCommand {
    func run() throws {
        let store = try storeOptions.open()
        _ = try store.setPinned(Self.pinned, noteId: try note.resolve(in: store))
    }
}

struct DuplicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicate", abstract: "Copy a note (its text, tags, folder and attachments) and print the copy's id.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.open()
        let copy = try store.duplicateNote(id: try note.resolve(in: store))
        if output.json { try JSONOutput.print(NoteJSON(note: copy)) } else { print(copy.id.key) }
    }
}

struct PinCommand: PinningCommand {
    static let configuration = CommandConfiguration(commandName: "pin", abstract: "Pin a note to the top of lists.")
    static let pinned = true

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
}

struct UnpinCommand: PinningCommand {
    static let configuration = CommandConfiguration(commandName: "unpin", abstract: "Unpin a note.")
    static let pinned = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
}

struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mv", abstract: "File a note in a folder, or take it out.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @Option(help: "The folder to move the note to.") var folder: String?
    @Flag(name: .customLong("no-folder"), help: "Take the note out of its folder.") var noFolder = false

    func validate() throws {
        if (folder == nil) == !noFolder { throw Words.usage("folderOrNoFolder") }
    }

    func run() throws {
        let store = try storeOptions.open()
        _ = try store.moveNote(id: try note.resolve(in: store), toFolder: try store.folderId(folder))
    }
}

extension NoteQuery.Order: ExpressibleByArgument {}
