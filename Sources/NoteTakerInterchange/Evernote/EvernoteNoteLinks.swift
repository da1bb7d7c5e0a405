import Foundation
import NoteTakerKit

/// Links from one Evernote note to another, as Evernote writes them: `evernote:///view/…`
/// ("Copy internal link" in the desktop apps), `https://www.evernote.com/shard/s1/nl/…`
/// (the same, as a web address), `https://share.evernote.com/note/…` and
/// `https://www.evernote.com/client/web#?n=…` (Evernote 10 and the web app).
///
/// An export carries no note's Evernote id, but Evernote writes such a link with its target's
/// title as the link text; so a link is resolved by that title among the notes of the same
/// file. A note with such links waits until the whole file is read (its targets may come
/// after it), then its links become links by id.
struct EvernoteNoteLinks {
    private var titles: [String: UUID] = [:]
    private var waiting: [Waiting] = []

    /// A note held until the file's titles are all known.
    struct Waiting {
        var item: NoteImport
        var label: String
        var warnings: [Wording]
        var temporaryFiles: [URL]
        var fileBytes: Int64
    }

    /// Whether a link target is an Evernote note link.
    static func isNoteLink(_ target: String) -> Bool {
        let lowered = target.lowercased()
        if lowered.hasPrefix("evernote:///view/") || lowered.hasPrefix("evernote://view/") { return true }
        guard let url = URL(string: target), let host = url.host?.lowercased(),
              host == "evernote.com" || host.hasSuffix(".evernote.com") else { return false }
        let path = url.path.lowercased()
        return path.contains("/nl/") || path.hasPrefix("/note/") || path.hasPrefix("/shard/") && path.contains("/sh/")
            || (path.hasPrefix("/client/web") && (url.fragment?.contains("n=") ?? false))
    }

    /// Notes a title; the first note with a title is the one its links go to.
    mutating func noteTitle(_ title: String, id: UUID) {
        let key = Self.key(title)
        if !key.isEmpty, titles[key] == nil { titles[key] = id }
    }

    /// Holds the note when its body links to other Evernote notes; returns whether it did.
    mutating func holdIfLinking(_ waiting: Waiting) -> Bool {
        guard MarkdownLink.links(in: waiting.item.draft.body).contains(where: { !$0.isWikilink && Self.isNoteLink($0.target) }) else {
            return false
        }
        self.waiting.append(waiting)
        return true
    }

    /// The held notes with their links resolved (counted in `report`): a link whose text is
    /// the title of a note in the file, or else of a note already here (`existing`: a notebook
    /// imported earlier), becomes `[text](note:ID)`; any other stays as written, with a warning.
    mutating func resolved(counting report: inout ImportReport, existing: (String) -> UUID?) -> [Waiting] {
        defer { waiting = [] }
        return waiting.map { note in
            var note = note
            var replacements: [(Range<String.Index>, String)] = []
            let body = note.item.draft.body
            for link in MarkdownLink.links(in: body) where !link.isWikilink && Self.isNoteLink(link.target) {
                if let target = titles[Self.key(link.text)] ?? existing(link.text) {
                    replacements.append((link.range, "[\(link.text)](note:\(target.key))"))
                    report.linksKept += 1
                } else {
                    report.linksUnresolved += 1
                    note.warnings.append(Wording("warnEvernoteLinkUnresolved", ["text": link.text]))
                }
            }
            note.item.draft.body = MarkdownLink.replacing(replacements, in: body)
            return note
        }
    }

    /// A title as links are matched to it: without Markdown emphasis, spaces collapsed, any case.
    private static func key(_ title: String) -> String {
        title.filter { $0 != "*" && $0 != "_" && $0 != "`" }
            .split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }
}
