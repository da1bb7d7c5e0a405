import ArgumentParser
import Foundation
import NoteTakerKit

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Tag notes, and list, rename, merge and delete tags.",
        discussion: "Tag names compare case-insensitively: Work and work are one tag.",
        subcommands: [Add.self, Remove.self, List.self, Rename.self, Merge.self, Delete.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add tags to a note.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var arguments: NoteTagsArguments

        func run() throws {
            let store = try storeOptions.open()
            _ = try store.addTags(arguments.names, toNote: try arguments.note.resolve(in: store))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove tags from a note.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var arguments: NoteTagsArguments

        func run() throws {
            let store = try storeOptions.open()
            _ = try store.removeTags(arguments.names, fromNote: try arguments.note.resolve(in: store))
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List tags with their note counts.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var output: JSONFlag

        func run() throws {
            let store = try storeOptions.openForReading()
            let tags = try store.tags()
            if output.json { return try JSONOutput.print(tags.map(TagJSON.init)) }
            if tags.isEmpty, Terminal.isInteractive { print(Words.text("noTags")) }
            let width = tags.map(\.tag.name.count).max() ?? 0
            for summary in tags {
                print(summary.tag.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(summary.noteCount)")
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename a tag (onto an existing name, the two merge).")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The tag's name.") var old: String
        @Argument(help: "The new name.") var new: String

        func run() throws {
            _ = try storeOptions.open().renameTag(old, to: new)
        }
    }

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge", abstract: "Move every note of one tag to another, and delete the first.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The tag to merge away.") var from: String
        @Argument(help: "The tag to keep.") var into: String

        func run() throws {
            _ = try storeOptions.open().mergeTag(from, into: into)
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a tag; its notes stay.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The tag's name.") var name: String

        func run() throws {
            try storeOptions.open().deleteTag(name)
        }
    }
}
