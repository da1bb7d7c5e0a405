import ArgumentParser
import NoteTakerCLI
import Foundation
import NoteTakerKit
import NoteTakerSync

/// `notetaker sync`: one cycle, or watch; status, retry and settings.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CompanionCommand.sync.rawValue, abstract: CompanionCommand.sync.abstract,
        subcommands: [SyncNowCommand.self, SyncStatusCommand.self, SyncRetryCommand.self, SyncSettingsCommand.self],
        defaultSubcommand: SyncNowCommand.self)
}

struct SyncNowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now", abstract: "One sync cycle (the default), or --watch to stay connected.")
    @Flag(help: "Go on with a sync that deletes more than 50 notes (or 10 %) here.")
    var yes = false
    @Flag(help: "Stay connected and sync on every change, on either side, until interrupted.")
    var watch = false
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func run() async throws {
        let store = try storeOptions.open(concurrentReads: watch)
        let transport = try store.syncTransport()
        let interactive = isatty(STDERR_FILENO) == 1 && !output.json
        let engine = try SyncSetup.engine(for: store, transport: transport, allowMassDeletion: yes, showProgress: interactive && !watch)
        if watch { return try await watchForever(store: store, engine: engine, transport: transport) }
        let report = try await engine.sync()
        if interactive { ProgressLine().finish() }
        if output.json { return try JSONOutput.print(report) }
        print(Self.describe(report))
        let summary = try store.syncSummary()
        if summary.conflicts > 0 { print("\(notesPhrase(summary.conflicts)) in conflict: see `notetaker conflicts`.") }
        if !summary.failures.isEmpty { print("\(summary.failures.count) changes failed to sync: see `notetaker sync status`.") }
        if !summary.held.isEmpty { print("\(SyncStatusCommand.heldPhrase(summary.held.count)): see `notetaker sync status`.") }
        if report.serverRestored, let notice = summary.restoredServer { print(SyncStatusCommand.restoredPhrase(notice)) }
    }

    private func watchForever(store: NoteStore, engine: SyncEngine, transport: HTTPSyncTransport) async throws {
        guard try store.syncSettings().autoSync else {
            throw NoteTakerError.invalidInput("Automatic sync is off for this store, so only `notetaker sync` talks to the server. Turn it on with `notetaker sync settings --auto on`.")
        }
        let json = output.json
        let watcher = SyncWatcher(engine: engine, store: store, transport: transport) { event in
            Self.report(event, json: json)
        }
        Terminal.printNotice("Watching for changes on this device and on the server; Ctrl-C stops.")
        await watcher.run()
    }

    private static func report(_ event: SyncWatcher.Event, json: Bool) {
        let stamp = Date().formatted(date: .omitted, time: .standard)
        switch event {
        case .synced(let report) where report.pushed + report.pulled + report.conflicts + report.errors > 0:
            if json, let line = try? JSONOutput.line(report) { print(line) } else { print("\(stamp) \(describe(report))") }
        case .synced:
            break
        case .failed(let error, let wait):
            Terminal.printNotice("\(stamp) \(error.message) Next try in \(wait.components.seconds) s.")
        case .connected:
            Terminal.printNotice("\(stamp) Connected to the server's push channel.")
        case .disconnected(let wait):
            Terminal.printNotice("\(stamp) Push channel lost; reconnecting in \(wait.components.seconds) s.")
        }
        fflush(nil)
    }

    static func describe(_ report: SyncReport) -> String {
        var parts = ["sent \(report.pushed)", "received \(report.pulled)"]
        if report.merged > 0 { parts.append("merged \(report.merged)") }
        if report.conflicts > 0 { parts.append("\(report.conflicts) conflicts kept as copies") }
        if report.errors > 0 { parts.append("\(report.errors) errors") }
        if report.uploadedFiles + report.downloadedFiles > 0 {
            parts.append("files up \(report.uploadedFiles), down \(report.downloadedFiles)")
        }
        return "Synced: " + parts.joined(separator: ", ") + "."
    }
}

struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Pending changes, conflicts, and errors with their messages.")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.openForReading()
        let summary = try store.syncSummary()
        if output.json { return try JSONOutput.print(summary) }
        Self.printSummary(summary)
    }

    static func printSummary(_ summary: SyncSummary) {
        let last = summary.lastSyncedAt.map { $0.formatted(date: .abbreviated, time: .standard) } ?? "never"
        print("last synced     \(last)")
        print("waiting to sync \(summary.pending)")
        print("in conflict     \(summary.conflicts)")
        print("failed          \(summary.failures.count)")
        for failure in summary.failures {
            print("  \(failure.recordType) \(failure.recordId.key.prefix(8)) \(failure.label ?? ""): \(failure.message)")
        }
        if !summary.failures.isEmpty { print("Retry them with `notetaker sync retry`.") }
        if !summary.held.isEmpty {
            print("\(heldPhrase(summary.held.count)); nothing here was changed by them:")
            for record in summary.held { print("  \(record.recordType) \(record.recordId.prefix(8)): \(record.reason)") }
        }
        if let restored = summary.restoredServer { print(restoredPhrase(restored)) }
        if let failed = summary.failedCycle {
            print("The last sync failed (\(failed.at.formatted(date: .abbreviated, time: .standard))): \(failed.message)")
        }
    }

    /// "The sync server was restored from an older copy (noticed …); 2 notes sent again."
    static func restoredPhrase(_ notice: RestoredServerNotice) -> String {
        let when = notice.noticedAt.formatted(date: .abbreviated, time: .standard)
        let notes = notice.notesSentAgain == 1 ? "1 note" : "\(notice.notesSentAgain) notes"
        let others = notice.otherRecordsSentAgain == 0 ? "" : " and \(notice.otherRecordsSentAgain) folders, tags or attachments"
        return "The sync server was restored from an older copy (noticed \(when)); \(notes)\(others) sent again from this device."
    }

    /// "1 change from the server could not be applied", or the plural.
    static func heldPhrase(_ count: Int) -> String {
        count == 1 ? "1 change from the server could not be applied" : "\(count) changes from the server could not be applied"
    }
}

struct SyncRetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "retry", abstract: "Put changes that failed to sync back in line for the next sync.")
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let count = try storeOptions.open().retryFailedSync()
        print(count == 0 ? "No failed changes." : "\(count) changes will be tried again at the next sync.")
    }
}

struct SyncSettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "settings", abstract: "Show or change automatic sync, the merge policy and this device's name.")
    @Option(help: "Automatic sync for `serve` and `sync --watch`: on or off.")
    var auto: String?
    @Option(help: "Who wins a property changed on both sides: local-wins, server-wins or last-writer-wins.")
    var policy: String?
    @Option(name: .customLong("device-name"), help: "The name notes' histories give this device, here and on the others (\"\" for the host name).")
    var deviceName: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func validate() throws {
        if let auto, !["on", "off"].contains(auto) { throw ValidationError("--auto takes on or off.") }
        if let policy, MergePolicy.named(policy) == nil {
            throw ValidationError("--policy takes \(MergePolicy.names.joined(separator: ", ")).")
        }
    }

    func run() throws {
        let store = try storeOptions.open()
        if let auto { try store.setAutoSync(auto == "on") }
        if let policy { try store.setMergePolicy(policy) }
        if let deviceName { try store.setDeviceName(deviceName) }
        let settings = try store.syncSettings()
        if output.json { return try JSONOutput.print(settings) }
        print("auto-sync       \(settings.autoSync ? "on" : "off")")
        print("merge policy    \(settings.mergePolicy)")
        print("device name     \(settings.deviceName)")
    }
}
