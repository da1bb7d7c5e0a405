import Foundation
import NoteTakerKit

/// One bundle's text as a note: a first-line heading as the title (as Bear writes its notes),
/// `#tags` (single words, `#nested/tags`, and Bear's `#tags with spaces#`), and links to the
/// bundle's own files turned into attachments.
struct TextBundleNote {
    var title: String
    var body: String
    var tags: [String]
    /// Links to files the bundle does not hold, and files no link shows.
    var warnings: [Wording] = []

    /// Reads `text`; `fallbackTitle` (the bundle's name) is the title when the text does not
    /// start with a heading.
    init(text: String, fallbackTitle: String) {
        var rest = text[...]
        while let newline = rest.firstIndex(of: "\n"), rest[..<newline].allSatisfy(\.isWhitespace) {
            rest = rest[rest.index(after: newline)...]
        }
        let end = rest.firstIndex(of: "\n") ?? rest.endIndex
        if rest[..<end].hasPrefix("# ") {
            title = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].trimmingCharacters(in: .whitespaces)
            body = String(rest[end...]).trimmingCharacters(in: .newlines)
        } else {
            title = fallbackTitle
            body = text
        }
        let spaced = BearTags.spacedTags(in: body)
        var tags = spaced.tags
        for tag in InlineTags.tags(in: spaced.remaining) where !tags.contains(where: { $0.lowercased() == tag.lowercased() }) {
            tags.append(tag)
        }
        self.tags = tags
    }

    /// Attaches the bundle's files the text links to (in `assets/` or anywhere inside the
    /// bundle), rewriting each link to the attachment; a link to a file the bundle lacks, or
    /// that leaves it, is left as written with a warning, as is a file no link shows.
    mutating func attach(
        in bundle: TextBundleImporter.Bundle, files: TextBundleFiles, noteId: UUID, identity: DerivedIdentity, scratch: ScratchFolder
    ) throws(InterchangeError) -> (files: [NoteImport.File], copies: [URL], bytes: Int64) {
        let inside = Set(bundle.others)
        var attached: [String: NoteImport.File] = [:], order: [NoteImport.File] = [], copies: [URL] = [], bytes: Int64 = 0
        var replacements: [(Range<String.Index>, String)] = []
        for link in MarkdownLink.links(in: body) where !link.isWikilink {
            let target = link.target.removingPercentEncoding ?? link.target
            guard !target.isEmpty, !target.hasPrefix("#"), !MarkdownImporter.hasScheme(target) else { continue }
            guard let path = ArchivePath.contained(bundle.root.isEmpty ? target : bundle.root + "/" + target), inside.contains(path) else {
                warnings.append(Wording("warnTextBundleFileMissing", ["target": link.target]))
                continue
            }
            var file = attached[path]
            if file == nil {
                guard files.size(path) <= Attachment.maximumSize else {
                    warnings.append(Wording("warnAttachmentTooLarge", ["name": ArchivePath.name(path)]))
                    continue
                }
                let source = try files.source(path, scratch: scratch)
                if source.isCopy { copies.append(source.url) }
                bytes += files.size(path)
                let made = NoteImport.File(id: identity.importedID("\(noteId.key):\(path)"), fileName: ArchivePath.name(path), source: source.url)
                attached[path] = made
                order.append(made)
                file = made
            }
            guard let file else { continue }
            let text = link.text.isEmpty ? file.fileName : link.text
            replacements.append((link.range, "\(link.isEmbed ? "!" : "")[\(text)](attachment:\(file.id.key))"))
        }
        body = MarkdownLink.replacing(replacements, in: body)
        for path in bundle.others.sorted() where attached[path] == nil {
            warnings.append(Wording("warnTextBundleFileUnused", ["name": ArchivePath.name(path)]))
        }
        return (order, copies, bytes)
    }
}

/// Bear's tags with spaces: `#` at the start of a word, words, and a closing `#` (`#to read#`),
/// found in one pass outside code blocks.
enum BearTags {
    /// The spaced tags of `text`, first occurrence first, and `text` without them (for the
    /// single-word tags to be read from).
    static func spacedTags(in text: String) -> (tags: [String], remaining: String) {
        guard text.contains("#") else { return ([], text) }
        let code = MarkdownLink.codeRanges(in: text)
        var tags: [String] = [], found: [Range<String.Index>] = []
        var index = text.startIndex
        while let hash = text[index...].firstIndex(of: "#") {
            index = text.index(after: hash)
            let before = hash == text.startIndex ? " " : text[text.index(before: hash)]
            guard before.isWhitespace, index < text.endIndex, !text[index].isWhitespace, text[index] != "#" else { continue }
            // The closing mark: the next `#` on the line, after a word, before a space or the end.
            guard let close = text[index...].firstIndex(where: { $0 == "#" || $0.isNewline }), text[close] == "#" else { continue }
            let name = text[index..<close]
            let after = text.index(after: close)
            guard name.contains(" "), name.last.map({ !$0.isWhitespace }) ?? false,
                  after == text.endIndex || text[after].isWhitespace || text[after].isPunctuation,
                  !code.contains(where: { $0.contains(hash) }) else { continue }
            if !tags.contains(where: { $0.lowercased() == name.lowercased() }) { tags.append(String(name)) }
            found.append(hash..<after)
            index = after
        }
        return (tags, MarkdownLink.replacing(found.map { ($0, "") }, in: text))
    }
}
