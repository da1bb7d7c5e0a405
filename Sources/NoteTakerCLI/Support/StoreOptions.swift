import ArgumentParser
import Foundation
import NoteTakerKit

/// The options every command that touches the store takes.
package struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file to use (default: NOTETAKER_STORE, else the XDG data folder).", valueName: "path"))
    var store: String?
    @Option(name: .long, help: ArgumentHelp("Work in a shared folder or note, by its title or id (`notetaker share list`).", valueName: "name"))
    var shared: String?

    /// No store named: the default location (ArgumentParser's requirement).
    package init() {}

    /// Opens the store for a command that changes it: counts the launch, and lets the trash
    /// purge what has expired. One connection does it all, unless the command runs on
    /// (`concurrentReads`: the web app).
    /// With `--shared`, the shared zone's store, which a viewer of the share may not change.
    package func open(concurrentReads: Bool = false) throws -> NoteStore {
        let opened = try NoteStore.open(
            at: location, reindexProgress: Self.showReindexProgress(), concurrentReads: concurrentReads)
        if let shared { return try Self.sharedStore(shared, of: opened, writing: true) }
        try opened.recordLaunch()
        return opened
    }

    /// Opens the store for a command that only reads it: nothing is written (but an upgrade
    /// of a store made by an earlier version). With `--shared`, the shared zone's store.
    package func openForReading() throws -> NoteStore {
        let opened = try NoteStore.openForReading(at: location, reindexProgress: Self.showReindexProgress())
        guard let shared else { return opened }
        return try Self.sharedStore(shared, of: opened, writing: false)
    }

    /// The store of the accepted share `name` names among those of `store`;
    /// ``SyncError/viewOnlyShare`` for a command that changes it when this account may only
    /// view it.
    private static func sharedStore(_ name: String, of store: NoteStore, writing: Bool) throws -> NoteStore {
        let zone = try share(name, of: store)
        if writing, !zone.writable { throw SyncError.viewOnlyShare }
        return try store.sharedZoneStore(zone.zone)
    }

    /// The accepted share `name` names (its title, its id or an id prefix of 4 characters or
    /// more) among those of `store`.
    private static func share(_ name: String, of store: NoteStore) throws -> SharedZone {
        let wanted = name.lowercased()
        let zones = try store.sharedZones().filter(\.accepted)
        var matches = zones.filter { $0.zone == wanted || $0.title.lowercased() == wanted }
        if matches.isEmpty, wanted.count >= 4 { matches = zones.filter { $0.zone.hasPrefix(wanted) } }
        guard matches.count == 1 else { throw CommandError(matches.isEmpty ? "shareNotFound" : "shareAmbiguous", ["share": name]) }
        return matches[0]
    }

    /// With `--shared`, the account's own store and the share's zone, for what goes through the
    /// account (a share's history on the server); `nil` without it.
    package func accountAndShare() throws -> (account: NoteStore, zone: String)? {
        guard let shared else { return nil }
        let account = try NoteStore.open(at: location)
        return (account, try Self.share(shared, of: account).zone)
    }

    private var location: URL {
        store.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) } ?? NoteStore.defaultLocation()
    }

    /// Upgrading a large store may rebuild its search index once: how far it got, on a terminal.
    private static func showReindexProgress() -> ReindexProgress? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let line = ProgressLine()
        return { done, total in
            let fraction = total > 0 ? Double(done) / Double(total) : 1
            line.show(Words.text("progressReindexing", ["bar": ProgressLine.bar(fraction), "done": done, "total": total]), throttled: done < total)
            if done == total { line.finish() }
        }
    }
}

extension NoteStore {
    /// The folder named by a command-line argument, or `nil` when none was given.
    package func folderId(_ argument: String?) throws -> UUID? {
        try argument.map { try resolveFolder($0).id }
    }
}
