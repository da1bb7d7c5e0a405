import ArgumentParser
import Foundation
import NoteTakerKit

struct TrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash", abstract: "List the notes in the trash, most recently deleted first.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "How many notes to show (1-1000).") var limit = 50
    @Option(help: "How many notes to skip.") var offset = 0
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.open()
        let notes = try store.trashedNotes(limit: limit, offset: offset)
        if output.json { return try JSONOutput.print(notes.map { NoteJSON(note: $0) }) }
        TextOutput.printNotes(notes, empty: Words.text("trashEmpty")) { $0.trashedAt ?? $0.modifiedAt }
    }
}

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Take a note out of the trash, back into its folder.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument

    func run() throws {
        let store = try storeOptions.open()
        _ = try store.restoreNote(id: try note.resolve(in: store))
    }
}

struct PurgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge", abstract: "Delete notes in the trash for good, with their attachments.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var notes: NotesArgument

    func run() throws {
        let store = try storeOptions.open()
        let count = try store.purgeNotes(ids: try notes.resolve(in: store))
        Terminal.printNotice(Words.text("deletedForGood", ["count": count]))
    }
}

struct EmptyTrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "empty", abstract: "Delete every note in the trash for good.")

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        Terminal.printNotice(Words.text("deletedForGood", ["count": try store.emptyTrash()]))
    }
}
