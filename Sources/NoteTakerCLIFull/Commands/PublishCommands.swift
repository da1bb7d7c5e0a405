import ArgumentParser
import Foundation
import NoteTakerCLI
import NoteTakerKit
import NoteTakerSync
import NoteTakerSyncProtocol
import NoteTakerWeb

/// `notetaker publish NOTE`: a read-only page of the note for anyone with its link
/// (docs/sharing.md §5). The server keeps it sealed; the key is in the link only.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a note as a page anyone with its link can read; --list shows the pages published.",
        discussion: """
            The page shows the note as it is now, its pictures included. It is sealed on this device: \
            the server keeps it without being able to read it, and the key is in the link (after #). \
            Publishing the note again after an edit updates the page at the same link; \
            `notetaker unpublish NOTE` takes it down.
            """)
    @Argument(help: "The note's id or a unique prefix.")
    var id: String?
    @Flag(help: "List the pages this device published, and the account's pages on its server.")
    var list = false
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    /// A page as `--json` prints it.
    struct Page: Encodable {
        var noteId: String?
        var title: String?
        var pageId: String
        /// The link with its key (`null`: published from another device, which keeps the key).
        var link: String?
        var publishedAt: Date
        var size: Int64?
        /// The note changed since: the page shows an older version.
        var outdated: Bool?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(noteId, forKey: .noteId)
            try container.encode(title, forKey: .title)
            try container.encode(pageId, forKey: .pageId)
            try container.encode(link, forKey: .link)
            try container.encode(publishedAt, forKey: .publishedAt)
            try container.encode(size, forKey: .size)
            try container.encode(outdated, forKey: .outdated)
        }

        private enum CodingKeys: String, CodingKey { case noteId, title, pageId, link, publishedAt, size, outdated }
    }

    func validate() throws {
        if list == (id != nil) { throw ValidationError(Words.text("publishWhat")) }
    }

    func run() async throws {
        let store = try storeOptions.open()
        if list { return try await printList(store) }
        let noteId = try store.resolveNoteId(id ?? "")
        let page = try await NotePage.publish(noteId, in: store)
        if output.json {
            try JSONOutput.print(Page(noteId: noteId.key, title: try store.note(id: noteId).title, pageId: page.pageId, link: page.link,
                                      publishedAt: page.publishedAt, outdated: false))
        } else {
            print(Words.text("published", ["title": TextOutput.title(try store.note(id: noteId).title)]))
            print("  " + page.link)
            print(Words.text("publishedKey"))
        }
    }

    private func printList(_ store: NoteStore) async throws {
        let mine = try store.publishedNotes()
        let onServer = try await store.publishedPagesOnServer()
        var pages: [Page] = []
        for page in mine {
            let note = try? store.note(id: page.noteId)
            pages.append(Page(noteId: page.noteId.key, title: note?.title, pageId: page.pageId, link: page.link, publishedAt: page.publishedAt,
                              size: onServer.first { $0.id == page.pageId }?.size,
                              outdated: note.map { $0.modifiedAt > page.noteModifiedAt }))
        }
        for page in onServer where !mine.contains(where: { $0.pageId == page.id }) {
            pages.append(Page(pageId: page.id, publishedAt: Date(timeIntervalSince1970: page.createdAt), size: page.size))
        }
        if output.json { return try JSONOutput.print(pages) }
        guard !pages.isEmpty else { return print(Words.text("publishedNone")) }
        TextOutput.printTable(pages.map { page in
            [TextOutput.dateTime(page.publishedAt),
             page.title.map(TextOutput.title) ?? (page.noteId == nil ? Words.text("publishedElsewhereDevice") : Words.text("publishedNoteDeleted")),
             (page.link ?? page.pageId) + (page.outdated == true ? "  " + Words.text("publishedOutdated") : "")]
        })
    }
}

/// `notetaker unpublish NOTE`: takes a published page down; its link then says so.
struct UnpublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpublish",
        abstract: "Take down a note's published page (or, with --page, any of the account's pages).")
    @Argument(help: "The note's id or a unique prefix.")
    var id: String?
    // A page's id is base64url and may begin with "-": taken as given, never as an option's name.
    @Option(parsing: .unconditional, help: "A page's id, as `notetaker publish --list` shows it: for a page published from another device.")
    var page: String?
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if (page == nil) == (id == nil) { throw ValidationError(Words.text("unpublishWhat")) }
    }

    func run() async throws {
        let store = try storeOptions.open()
        if let page {
            guard try await store.unpublishPage(page) else { throw CommandError("unpublishedNothing", ["page": page]) }
            return print(Words.text("unpublishedPage", ["page": page]))
        }
        let noteId = try store.resolveNoteId(id ?? "")
        try await store.unpublishNote(noteId)
        print(Words.text("unpublished", ["title": TextOutput.title((try? store.note(id: noteId).title) ?? noteId.key)]))
    }
}
