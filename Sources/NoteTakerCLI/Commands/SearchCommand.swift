import ArgumentParser
import Foundation
import NoteTakerKit

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search titles, bodies and tags; best matches first.",
        discussion: """
            Accents and case are ignored. "quoted words" match as a phrase, word* as a prefix, -word excludes, \
            and OR between two words accepts either. Any other text is searched as it is.

            --contains TEXT finds TEXT inside words too ("ffee" finds "coffee"), in titles and bodies, \
            most recently modified first; letters A-Z in any case.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The words to search for.") var query: String?
    @Option(help: ArgumentHelp("Find this text anywhere, inside words too, instead of searching words.", valueName: "text"))
    var contains: String?
    @Option(help: "Only notes with this tag.") var tag: String?
    @Option(help: "Only notes in this folder or its subfolders.") var folder: String?
    @Flag(help: "Only pinned notes.") var pinned = false
    @Flag(help: "Search the trash instead.") var trash = false
    @Option(help: "How many results to show (1-1000).") var limit = 50
    @OptionGroup var output: JSONFlag

    func validate() throws {
        switch (query, contains) {
        case (nil, nil): throw Words.usage("searchWhat")
        case (.some, .some): throw Words.usage("searchWordsOrContains")
        case (_, .some(let text)) where text.isEmpty: throw Words.usage("containsNeedsText")
        default: break
        }
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let hits = try store.search(SearchQuery(
            query ?? contains ?? "", tag: tag, folderId: try store.folderId(folder), pinnedOnly: pinned, inTrash: trash,
            limit: limit, matchesSubstring: contains != nil))
        if output.json { return try JSONOutput.print(hits.map(SearchHitJSON.init)) }
        if hits.isEmpty, Terminal.isInteractive { print(Words.text("noMatches")) }
        for hit in hits {
            print(TextOutput.noteLine(hit.note))
            let snippet = Terminal.highlighted(hit).split(whereSeparator: \.isNewline).joined(separator: " ")
            if !snippet.isEmpty { print("          \(snippet)") }
        }
    }
}
