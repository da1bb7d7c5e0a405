import ArgumentParser
import Foundation
import NoteTakerKit

/// The options every command that touches the store takes.
package struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file to use (default: NOTETAKER_STORE, else the XDG data folder).", valueName: "path"))
    var store: String?

    /// No store named: the default location (ArgumentParser's requirement).
    package init() {}

    /// Opens the store for a command that changes it: counts the launch, and lets the trash
    /// purge what has expired. One connection does it all, unless the command runs on
    /// (`concurrentReads`: the web app).
    package func open(concurrentReads: Bool = false) throws -> NoteStore {
        let opened = try NoteStore.open(
            at: location, reindexProgress: Self.showReindexProgress(), concurrentReads: concurrentReads)
        try opened.recordLaunch()
        return opened
    }

    /// Opens the store for a command that only reads it: nothing is written (but an upgrade
    /// of a store made by an earlier version).
    package func openForReading() throws -> NoteStore {
        try NoteStore.openForReading(at: location, reindexProgress: Self.showReindexProgress())
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
