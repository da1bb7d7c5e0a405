import ArgumentParser
import Foundation
import NoteTakerKit

/// The options every command that touches the store takes.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The store file to use (default: NOTETAKER_STORE, else the XDG data folder).", valueName: "path"))
    var store: String?

    /// Opens the store, counts the launch, and lets the trash purge what has expired.
    func open() throws -> NoteStore {
        let url = store.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) } ?? NoteStore.defaultLocation()
        // Upgrading a large store may rebuild its search index once: show how far it got.
        let line = isatty(STDERR_FILENO) == 1 ? ProgressLine() : nil
        let opened = try NoteStore.open(at: url) { done, total in
            let fraction = total > 0 ? Double(done) / Double(total) : 1
            line?.show("Updating the search index \(ProgressLine.bar(fraction))  \(done) of \(total) notes", throttled: done < total)
            if done == total { line?.finish() }
        }
        try opened.recordLaunch()
        return opened
    }
}

extension NoteStore {
    /// The folder named by a command-line argument, or `nil` when none was given.
    func folderId(_ argument: String?) throws -> UUID? {
        try argument.map { try resolveFolder($0).id }
    }
}
