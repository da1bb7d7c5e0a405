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
            ("store", store.databaseURL?.path ?? "in memory"),
            ("launches", "\(stats.launches)"),
            ("notes created", "\(stats.notesCreated)"),
            ("sync events", "\(stats.syncEvents)"),
            ("notes", "\(stats.notes) (\(stats.pinnedNotes) pinned, \(stats.recentNotes) changed in the last 7 days)"),
            ("in the trash", "\(stats.trashedNotes)"),
            ("folders", "\(stats.folders)"),
            ("tags", "\(stats.tags)"),
            ("attachments", "\(stats.attachments) (\(TextOutput.byteCount(stats.attachmentBytes)))"),
            ("waiting to sync", "\(stats.pendingChanges)"),
        ]
        for (label, value) in rows {
            print(label.padding(toLength: 16, withPad: " ", startingAt: 0) + value)
        }
    }
}
