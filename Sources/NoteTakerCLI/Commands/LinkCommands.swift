import ArgumentParser
import Foundation
import NoteTakerKit

/// `notetaker links ID`: the notes a note links to (`[Title](note:ID)` in its text).
struct LinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "links", abstract: "The notes a note links to, in the order of its text.",
        discussion: "A link to a note is `[Title](note:ID)` in its Markdown; `notetaker link-to ID` prints one to paste.")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.openForReading()
        let links = try store.links(from: try note.resolve(in: store))
        if output.json { return try JSONOutput.print(links) }
        printLinked(links, empty: Words.text("noLinksFrom"))
    }
}

/// `notetaker backlinks ID`: the notes that link to a note, with the line around each link.
struct BacklinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backlinks", abstract: "The notes that link to a note, with the line around each link.")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument
    @OptionGroup var output: JSONFlag

    func run() throws {
        let store = try storeOptions.openForReading()
        let links = try store.backlinks(to: try note.resolve(in: store))
        if output.json { return try JSONOutput.print(links) }
        printLinked(links, empty: Words.text("noLinksTo"))
    }
}

/// `notetaker link-to ID`: the Markdown of a link to a note, to put in another.
struct LinkToCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link-to", abstract: "Print the Markdown of a link to a note: [Title](note:ID).")
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var note: NoteArgument

    func run() throws {
        let store = try storeOptions.open()
        print(NoteStore.markdownLink(to: try store.note(id: try note.resolve(in: store))))
    }
}

/// Linked notes a line each (id prefix, title), a backlink's context under it.
private func printLinked(_ links: [LinkedNote], empty: String) {
    if links.isEmpty { return print(empty) }
    for link in links {
        print("\(link.id.key.prefix(8))  \(TextOutput.title(link.title))")
        if !link.context.isEmpty { print("          \(link.context)") }
    }
}
