import ArgumentParser
import Foundation
import NoteTakerKit

struct FolderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folder",
        abstract: "Create, list, rename, move and delete folders.",
        discussion: "Deleting a folder keeps its notes (they are left with no folder); its subfolders move up to its parent.",
        subcommands: [New.self, List.self, Rename.self, Move.self, Remove.self])

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Create a folder and print its id.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The folder's name.") var name: String
        @Option(help: "The folder to create it in.") var parent: String?
        @Option(help: "A symbol name to show beside the folder.") var icon: String?

        func run() throws {
            let store = try storeOptions.open()
            let folder = try store.createFolder(name: name, parentId: try store.folderId(parent), icon: icon)
            print(folder.id.key)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the folder tree with note counts.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var output: JSONFlag

        func run() throws {
            let store = try storeOptions.openForReading()
            let tree = try store.folderTree()
            if output.json { return try JSONOutput.print(FolderJSON.flatten(tree)) }
            if tree.isEmpty, Terminal.isInteractive { print(Words.text("noFolders")) }
            printTree(tree, depth: 0)
        }

        private func printTree(_ nodes: [FolderNode], depth: Int) {
            for node in nodes {
                let count = node.totalNoteCount == node.noteCount
                    ? Words.number(node.noteCount)
                    : Words.text("folderCountWithSubfolders", ["count": node.noteCount, "total": node.totalNoteCount])
                print("\(TextOutput.shortId(node.id))  \(String(repeating: "  ", count: depth))\(node.folder.name) (\(count))")
                printTree(node.children, depth: depth + 1)
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a folder.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The folder (name, path or id).") var folder: String
        @Argument(help: "The new name.") var name: String

        func run() throws {
            let store = try storeOptions.open()
            _ = try store.renameFolder(id: try store.resolveFolder(folder).id, to: name)
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mv", abstract: "Move a folder under another, or to the top level.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The folder to move.") var folder: String
        @Option(help: "The new parent folder.") var parent: String?
        @Flag(help: "Move the folder to the top level.") var root = false

        func validate() throws {
            if (parent == nil) == !root { throw Words.usage("parentOrRoot") }
        }

        func run() throws {
            let store = try storeOptions.open()
            _ = try store.moveFolder(id: try store.resolveFolder(folder).id, toParent: try store.folderId(parent))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Delete a folder; its notes stay, and its subfolders move up.")

        @OptionGroup var storeOptions: StoreOptions
        @Argument(help: "The folder (name, path or id).") var folder: String

        func run() throws {
            let store = try storeOptions.open()
            try store.deleteFolder(id: try store.resolveFolder(folder).id)
        }
    }
}
