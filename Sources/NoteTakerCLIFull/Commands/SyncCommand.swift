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
        let (report, zones) = try await Self.syncOnce(store: store, engine: engine, transport: transport, allowMassDeletion: yes)
        if interactive { ProgressLine().finish() }
        if output.json { return try JSONOutput.print(report) }
        print(Self.describe(report))
        for zone in zones { print(ShareCommand.describe(zone)) }
        if report.conversionFinished { print(Words.text("syncedConversionFinished")) }
        let summary = try store.syncSummary()
        if summary.conflicts > 0 { print(Words.text("syncedConflicts", ["count": summary.conflicts])) }
        if !summary.failures.isEmpty { print(Words.text("syncedFailures", ["count": summary.failures.count])) }
        if !summary.held.isEmpty { print(Words.text("syncedHeld", ["count": summary.held.count])) }
        if report.serverRestored, let notice = summary.restoredServer { print(SyncStatusCommand.restoredPhrase(notice)) }
    }

    /// One cycle: the shares first (a note moved into one on another device is then held here
    /// when its deletion from the account's own notes comes down), then the account's own
    /// notes. The shares failing is told, and does not stop the rest.
    static func syncOnce(
        store: NoteStore, engine: SyncEngine, transport: HTTPSyncTransport, allowMassDeletion: Bool
    ) async throws -> (SyncReport, [SharedZoneSync]) {
        var zones: [SharedZoneSync] = []
        switch await store.syncShares(transport: transport, allowMassDeletion: allowMassDeletion) {
        case .success(let synced)?: zones = synced
        case .failure(let error)?: Terminal.printNotice(Words.text("sharesNotSynced", ["reason": error.message]))
        case nil: break
        }
        return (try await engine.sync(), zones)
    }

    private func watchForever(store: NoteStore, engine: SyncEngine, transport: HTTPSyncTransport) async throws {
        guard try store.syncSettings().autoSync else {
            throw CommandError("watchNeedsAutoSync")
        }
        let json = output.json
        let watcher = SyncWatcher(engine: engine, store: store, transport: transport) { event in
            Self.report(event, json: json)
        }
        Terminal.printNotice(Words.text("watching"))
        await watcher.run()
    }

    private static func report(_ event: SyncWatcher.Event, json: Bool) {
        let stamp = TextOutput.dateTime(Date(), seconds: true)
        switch event {
        case .synced(let report) where report.pushed + report.pulled + report.conflicts + report.errors > 0:
            if json, let line = try? JSONOutput.line(report) { print(line) } else { print("\(stamp) \(describe(report))") }
        case .synced:
            break
        case .failed(let error, let wait):
            Terminal.printNotice("\(stamp) " + Words.text("watchFailed", ["reason": Words.message(for: error) ?? "\(error)", "seconds": wait.components.seconds]))
        case .connected:
            Terminal.printNotice("\(stamp) " + Words.text("watchConnected"))
        case .disconnected(let wait):
            Terminal.printNotice("\(stamp) " + Words.text("watchDisconnected", ["seconds": wait.components.seconds]))
        case .shared(.success(let zones)):
            // JSON lines stay the account's own cycles (docs/cli-json.md).
            for zone in zones where !json && (zone.ended || Self.moved(zone.result)) { print("\(stamp) \(ShareCommand.describe(zone))") }
        case .shared(.failure(let error)):
            Terminal.printNotice("\(stamp) " + Words.text("sharesNotSynced", ["reason": error.message]))
        }
        fflush(nil)
    }

    /// Whether a cycle moved something, or failed: worth a line while watching.
    private static func moved(_ result: Result<SyncReport, SyncError>) -> Bool {
        guard case .success(let report) = result else { return true }
        return report.pushed + report.pulled + report.conflicts + report.errors > 0
    }

    static func describe(_ report: SyncReport) -> String {
        Words.text("synced", ["parts": parts(of: report)])
    }

    /// What a cycle did, as a list: `sent 2, received 3`.
    static func parts(of report: SyncReport) -> String {
        var parts = [Words.text("syncedSent", ["count": report.pushed]), Words.text("syncedReceived", ["count": report.pulled])]
        if report.merged > 0 { parts.append(Words.text("syncedMerged", ["count": report.merged])) }
        if report.conflicts > 0 { parts.append(Words.text("syncedConflictCopies", ["count": report.conflicts])) }
        if report.errors > 0 { parts.append(Words.text("syncedErrors", ["count": report.errors])) }
        if report.resealedVersions > 0 { parts.append(Words.text("syncedResealedVersions", ["count": report.resealedVersions])) }
        if report.resealedFiles > 0 { parts.append(Words.text("syncedResealedFiles", ["count": report.resealedFiles])) }
        if report.uploadedFiles + report.downloadedFiles > 0 {
            parts.append(Words.text("syncedFiles", ["up": report.uploadedFiles, "down": report.downloadedFiles]))
        }
        return parts.joined(separator: Words.text("listSeparator"))
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
        TextOutput.printFields(Self.summaryFields(summary))
        Self.printSummaryDetails(summary)
    }

    /// The summary's counts, as labelled lines.
    static func summaryFields(_ summary: SyncSummary) -> [(label: String, value: String)] {
        return [
            (Words.text("status_lastSynced"), summary.lastSyncedAt.map { TextOutput.dateTime($0, seconds: true) } ?? Words.text("never")),
            (Words.text("status_pending"), Words.number(summary.pending)),
            (Words.text("status_conflicts"), Words.number(summary.conflicts)),
            (Words.text("status_failed"), Words.number(summary.failures.count)),
        ]
    }

    /// What failed, what was held and what happened to the server, under the counts.
    static func printSummaryDetails(_ summary: SyncSummary) {
        for failure in summary.failures {
            print("  \(failure.recordType) \(failure.recordId.key.prefix(8)) \(failure.label ?? ""): \(failure.message)")
        }
        if !summary.failures.isEmpty { print(Words.text("retryHowTo")) }
        if !summary.held.isEmpty {
            print(Words.text("heldList", ["count": summary.held.count]))
            for record in summary.held { print("  \(record.recordType) \(record.recordId.prefix(8)): \(record.reason)") }
        }
        if let restored = summary.restoredServer { print(restoredPhrase(restored)) }
        if let failed = summary.failedCycle {
            print(Words.text("lastSyncFailed", ["when": TextOutput.dateTime(failed.at, seconds: true), "reason": failed.message(in: Words.language)]))
        }
    }

    /// "The sync server was restored from an older copy (noticed …); 2 notes sent again."
    static func restoredPhrase(_ notice: RestoredServerNotice) -> String {
        let values: [String: any WordingArgument] = [
            "when": TextOutput.dateTime(notice.noticedAt, seconds: true),
            "count": notice.notesSentAgain, "others": notice.otherRecordsSentAgain,
        ]
        return Words.text(notice.otherRecordsSentAgain == 0 ? "serverRestoredNotes" : "serverRestoredNotesAndOthers", values)
    }
}

struct SyncRetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "retry", abstract: "Put changes that failed to sync back in line for the next sync.")
    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let count = try storeOptions.open().retryFailedSync()
        print(count == 0 ? Words.text("noFailedChanges") : Words.text("retrying", ["count": count]))
    }
}

struct SyncSettingsCommand: AsyncParsableCommand {
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
        if let auto, !["on", "off"].contains(auto) { throw Words.usage("takesOnOrOff", ["option": "--auto"]) }
        if let policy, MergePolicy.named(policy) == nil {
            throw Words.usage("policyTakes", ["choices": MergePolicy.names.joined(separator: ", ")])
        }
    }

    func run() async throws {
        let store = try storeOptions.open()
        if let auto { try store.setAutoSync(auto == "on") }
        if let policy { try store.setMergePolicy(policy) }
        if let deviceName {
            try store.setDeviceName(deviceName)
            // The account's list of sessions shows the new name too.
            if store.syncToken() != nil {
                do throws(SyncError) { try await store.nameSyncSession() } catch {
                    Terminal.printNotice(Words.text("deviceNameNotSent", ["reason": error.message]))
                }
            }
        }
        let settings = try store.syncSettings()
        if output.json { return try JSONOutput.print(settings) }
        TextOutput.printFields([
            (Words.text("settings_autoSync"), Words.text(settings.autoSync ? "on" : "off")),
            (Words.text("settings_mergePolicy"), settings.mergePolicy),
            (Words.text("settings_deviceName"), settings.deviceName),
        ])
    }
}
