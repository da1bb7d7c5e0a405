import ArgumentParser
import Foundation
import NoteTakerKit

/// `notetaker conflicts`: notes whose bodies changed on two devices in ways that could not merge.
struct ConflictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts", abstract: "List sync conflicts, or resolve one.",
        subcommands: [ConflictsListCommand.self, ConflictsResolveCommand.self], defaultSubcommand: ConflictsListCommand.self)
}

struct ConflictsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The notes in conflict (the default).")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func run() throws {
        let conflicts = try storeOptions.openForReading().conflicts()
        if output.json { return try JSONOutput.print(conflicts) }
        if conflicts.isEmpty { return print(Words.text("noConflicts")) }
        for conflict in conflicts {
            let copy = conflict.copyId.map { Words.text("conflictCopyIn", ["id": $0.key.prefix(8)]) } ?? ""
            print("\(conflict.noteId.key.prefix(8))  \(TextOutput.title(conflict.title))\(copy)")
        }
        print(Words.text("conflictsHowToResolve"))
    }
}

struct ConflictsResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resolve", abstract: "Keep this device's version, the server's, or both.")
    @OptionGroup var note: NoteArgument
    @Option(help: "local, server or both.")
    var keep: String
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if ConflictResolution(rawValue: keep) == nil { throw Words.usage("keepTakes") }
    }

    func run() throws {
        let store = try storeOptions.open()
        let id = try note.resolve(in: store)
        let outcome = try store.resolveConflict(noteId: id, keep: ConflictResolution(rawValue: keep) ?? .both)
        print(Words.text("resolvedKept_\(keep)"))
        if case .editedCopyKept(let copy) = outcome {
            print(Words.text("resolvedEditedCopyKept", ["id": copy.key.prefix(8)]))
        }
    }
}
