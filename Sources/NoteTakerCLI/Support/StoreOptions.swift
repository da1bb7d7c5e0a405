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
        let opened = try NoteStore.open(at: url)
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
