import ArgumentParser
import NoteTakerCLI
import Foundation
import NoteTakerKit
import NoteTakerSync

/// `notetaker history`: a note's earlier versions, one of them in full or as a diff,
/// restoring one, and thinning them by the retention.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CompanionCommand.history.rawValue, abstract: CompanionCommand.history.abstract,
        discussion: """
            Every version of a note's title and body is kept: edits (one per few minutes of continuous \
            editing), and the text before every change from sync, merge, restore or conflict resolution. \
            Versions are thinned as they age: every one for 7 days, then one a day for 90 days, then one \
            a week, forever (change it with `history retention`). Purging a note from the trash deletes \
            its history.
            """,
        subcommands: [HistoryListCommand.self, HistoryShowCommand.self, HistoryRestoreCommand.self,
                      HistoryPruneCommand.self, HistoryRetentionCommand.self],
        defaultSubcommand: HistoryListCommand.self)
}

struct HistoryListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "A note's versions, newest first (the default).")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var output: JSONFlag

    func run() async throws {
        var store = try storeOptions.openForReading()
        // With sync set up, the server's versions of the note are fetched and kept here.
        if (try? store.syncTransport()) != nil { store = try storeOptions.open() }
        let current = try store.note(id: try note.resolve(in: store))
        let (versions, serverProblem) = if let (account, zone) = try storeOptions.accountAndShare() {
            try await account.completeSharedHistory(zone: zone, noteId: current.id)
        } else {
            try await store.completeHistory(noteId: current.id)
        }
        if let serverProblem { Terminal.printNotice(Words.text("historyLocalOnly", ["reason": Words.message(for: serverProblem) ?? "\(serverProblem)"])) }
        if output.json { return try JSONOutput.print(versions) }
        if versions.isEmpty { return print(Words.text("noEarlierVersions", ["title": TextOutput.title(current.title)])) }
        TextOutput.printTable(versions.map { version in
            [
                String(version.id),
                TextOutput.dateTime(version.modifiedAt, seconds: true),
                Self.writer(of: version),
                Words.text("replacedBy_\(version.replacedBy.rawValue)"),
                Words.text("versionSize", ["count": version.bodySize]),
                version.changedLines.map { $0.added + $0.removed == 0
                    ? Words.text("noTextChange") : Words.text("changedLines", ["added": $0.added, "removed": $0.removed]) } ?? "",
            ]
        })
        print(Words.text("historyHowTo", ["id": current.id.key.prefix(8)]))
    }

    /// Who wrote a version: this device, another by its name; in a share, another account
    /// and its device.
    static func writer(of version: NoteVersion) -> String {
        let device = version.isThisDevice ? Words.text("thisDevice") : version.device ?? Words.text("anotherDevice")
        guard let author = version.author else { return device }
        return Words.text("versionAuthor", ["author": author, "device": device])
    }
}

struct HistoryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "One version's title and body, or its diff against the note now.")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @Argument(help: "The version's number, from `notetaker history ID`.") var version: Int64
    @Flag(help: "Show the lines that differ from the note as it is now.") var diff = false

    func run() throws {
        let store = try storeOptions.openForReading()
        let id = try note.resolve(in: store)
        let chosen = try store.version(version, of: id)
        guard diff else {
            return print(Editor.compose(title: chosen.title, body: chosen.body ?? ""))
        }
        let current = try store.note(id: id)
        if chosen.title != current.title { print("- \(chosen.title)\n+ \(current.title)\n") }
        for line in TextDiff.lines(from: chosen.body ?? "", to: current.body) {
            switch line {
            case .same(let text): print("  \(text)")
            case .removed(let text): print("- \(text)")
            case .added(let text): print("+ \(text)")
            }
        }
    }
}

struct HistoryRestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Make a version's title and body the note's again (the text it replaces is kept as a version).")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @Argument(help: "The version's number, from `notetaker history ID`.") var version: Int64

    func run() throws {
        let store = try storeOptions.open()
        let id = try note.resolve(in: store)
        _ = try store.restoreVersion(version, of: id)
        Terminal.printNotice(Words.text("versionRestored", ["version": String(version)]))
    }
}

struct HistoryPruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "prune", abstract: "Thin every note's history by the retention now.")
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let removed = try storeOptions.open().pruneHistory()
        Terminal.printNotice(Words.text("versionsPruned", ["count": removed]))
    }
}

struct HistoryRetentionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retention", abstract: "Show or change how long versions are kept.")
    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Minutes of continuous editing that make one version (0: every edit).") var coalescingMinutes: Int?
    @Option(help: "Days during which every version is kept.") var everyVersionDays: Int?
    @Option(help: "Days during which one version a day is kept.") var dailyDays: Int?
    @Option(help: "Days during which one version a week is kept, or `forever`.") var weeklyDays: String?

    func validate() throws {
        if let weeklyDays, weeklyDays != "forever", Int(weeklyDays) == nil {
            throw Words.usage("weeklyDaysTakes")
        }
    }

    func run() throws {
        let store = try storeOptions.open()
        var retention = try store.historyRetention()
        if let coalescingMinutes { retention.coalescingMinutes = coalescingMinutes }
        if let everyVersionDays { retention.everyVersionDays = everyVersionDays }
        if let dailyDays { retention.dailyDays = dailyDays }
        if let weeklyDays { retention.weeklyDays = weeklyDays == "forever" ? nil : Int(weeklyDays) }
        if coalescingMinutes != nil || everyVersionDays != nil || dailyDays != nil || weeklyDays != nil {
            try store.setHistoryRetention(retention)
        }
        let values: [String: any WordingArgument] = [
            "minutes": retention.coalescingMinutes, "every": retention.everyVersionDays, "daily": retention.dailyDays,
            "weekly": retention.weeklyDays ?? 0,
        ]
        print(Words.text(retention.weeklyDays == nil ? "retentionForever" : "retentionUntil", values))
    }
}
