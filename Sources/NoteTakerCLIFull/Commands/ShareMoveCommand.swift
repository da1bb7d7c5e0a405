import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync

/// `notetaker share move NOTE --to SHARE` moves a note of this account's into a shared folder
/// (its members have it at their next sync); `--shared SHARE --private` makes a shared note
/// private again; `--shared A --to B` moves it between shares. Its tags, files and history go
/// with it (docs/sharing.md §3.5), then one sync sends the move.
struct ShareMoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move a note into a shared folder, or out of one (--private).",
        discussion: """
            notetaker share move NOTE --to Trip moves one of your notes into the shared folder Trip; \
            notetaker share move NOTE --shared Trip --private makes a note of Trip one of your own again. \
            Its tags, files and whole history go with it.
            """)
    @OptionGroup var note: NoteArgument
    @Option(name: .customLong("to"), help: ArgumentHelp("The share it goes to: its title or id.", valueName: "share"))
    var target: String?
    @Flag(name: .customLong("private"), help: "Make it one of your own notes again (it is in the share --shared names).")
    var toOwnNotes = false
    @Option(help: "The folder there (default: the shared folder's top; no folder among your own notes).")
    var folder: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    /// What `--json` prints (docs/cli-json.md): `share` and `folderId` null when none.
    struct Moved: Encodable {
        var id: String
        var share: String?
        var folderId: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(share, forKey: .share)
            try container.encode(folderId, forKey: .folderId)
        }

        private enum CodingKeys: String, CodingKey { case id, share, folderId }
    }

    func validate() throws {
        if (target == nil) == !toOwnNotes { throw Words.usage("shareMoveWhere") }
    }

    func run() async throws {
        let (account, from): (NoteStore, String?) = try storeOptions.accountAndShare().map { ($0.account, $0.zone) } ?? (try storeOptions.open(), nil)
        let source = try from.map { try account.sharedZoneStore($0) } ?? account
        let noteId = try note.resolve(in: source)
        let to = try target.map { try ShareCommand.resolve($0, in: try account.keptShares().filter(\.accepted)) }
        let destination = try to.map { try account.sharedZoneStore($0.zone) } ?? account
        let moved = try await account.moveNote(noteId, from: from, to: to?.zone, folder: try destination.folderId(folder))
        let transport = try account.syncTransport()
        let engine = try SyncSetup.engine(for: account, transport: transport, allowMassDeletion: false, showProgress: false)
        do {
            _ = try await SyncNowCommand.syncOnce(store: account, engine: engine, transport: transport, allowMassDeletion: false)
        } catch let error as SyncError {
            Terminal.printNotice(Words.text("shareMoveNotSynced", ["reason": error.message]))
        }
        if output.json { return try JSONOutput.print(Moved(id: moved.id.key, share: to?.zone, folderId: moved.folderId?.key)) }
        let title = TextOutput.title(moved.displayTitle)
        if let to {
            print(Words.text("shareMovedIn", ["title": title, "share": TextOutput.title(to.title)]))
        } else {
            print(Words.text("shareMovedOut", ["title": title]))
        }
    }
}
