import ArgumentParser
import Foundation
import NoteTakerKit

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Local-only figures: launches, notes created, sync events, and what the store holds.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.openForReading()
        let stats = try store.statistics()
        if output.json { return try JSONOutput.print(stats) }
        let rows: [(String, String)] = [
            ("store", store.databaseURL?.path ?? Words.text("inMemory")),
            ("launches", Words.number(stats.launches)),
            ("notesCreated", Words.number(stats.notesCreated)),
            ("syncEvents", Words.number(stats.syncEvents)),
            ("notes", Words.text("statNotesValue", ["count": stats.notes, "pinned": stats.pinnedNotes, "recent": stats.recentNotes])),
            ("trash", Words.number(stats.trashedNotes)),
            ("folders", Words.number(stats.folders)),
            ("tags", Words.number(stats.tags)),
            ("attachments", "\(Words.number(stats.attachments)) (\(TextOutput.byteCount(stats.attachmentBytes)))"),
            ("pending", Words.number(stats.pendingChanges)),
        ]
        TextOutput.printFields(rows.map { (Words.text("stat_\($0.0)"), $0.1) })
    }
}
