import Foundation
import NoteTakerKit

/// The notes of a Markdown folder by the names other notes link to them with, so that a link
/// between two of them becomes a link by id (`[text](note:ID)`) that survives renames:
/// Obsidian's `[[Note]]`, `[[Folder/Note]]`, `[[Note#Heading]]`, `[[Note|shown]]`, `![[Note]]`,
/// and relative links to `.md` files (`[text](../Other%20Note.md)`, as Joplin and NoteTaker
/// write them). A name no note of the import has may be the title of a note already in the
/// store (imported before, or written here): the link goes to it when it is the only one.
struct NoteLinkIndex {
    /// The notes' relative paths by path without the extension, lowercased.
    private var byPath: [String: String] = [:]
    /// The notes' relative paths by file name without the extension, lowercased (a name used
    /// twice is ambiguous).
    private var byName: [String: [String]] = [:]
    /// A note's id from its relative path (read when a link first needs it).
    private let noteId: (String) -> UUID?
    /// The one note already in the store with a title (lower case), if there is exactly one.
    private let existing: (String) -> UUID?

    init(paths: [String], noteId: @escaping (String) -> UUID?, existing: @escaping (String) -> UUID? = { _ in nil }) {
        self.noteId = noteId
        self.existing = existing
        for path in paths {
            let key = Self.withoutExtension(path).lowercased()
            byPath[key] = path
            byName[(key as NSString).lastPathComponent, default: []].append(path)
        }
    }

    /// What a link to a note resolves to.
    enum Resolution {
        /// Not a link to a note (a web address, a file, a heading in the same note).
        case notANote
        /// A note of the import.
        case note(UUID)
        /// A note the import does not hold (or two that share the name).
        case unresolved(String)
    }

    /// The note `link` (in the note at `directory`) points to.
    func resolve(_ link: MarkdownLink, from directory: String) -> Resolution {
        // Joplin's link to a note by its id (`:/0123…`): its export writes a relative link to
        // every note it exports, so one left like this goes to a note not in the export.
        if Self.isJoplinNoteLink(link.target) { return .unresolved(link.target) }
        var target = link.target.removingPercentEncoding ?? link.target
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if target.isEmpty { return .notANote }
        if link.isWikilink {
            guard !target.contains(".") || target.lowercased().hasSuffix(".md") else { return .notANote }
            let key = Self.withoutExtension(target).lowercased()
            let name = (key as NSString).lastPathComponent
            let matches = byPath[key].map { [$0] } ?? byName[name] ?? []
            if matches.isEmpty, let id = existing(name) { return .note(id) }
            guard matches.count == 1, let id = noteId(matches[0]) else { return .unresolved(link.target) }
            return .note(id)
        }
        guard target.lowercased().hasSuffix(".md"), !target.contains("://") else { return .notANote }
        // `..` and `.` resolved by hand: the path is relative to the imported folder.
        var components: [Substring] = []
        for component in (directory + "/" + target).split(separator: "/") where component != "." {
            if component == ".." { _ = components.popLast() } else { components.append(component) }
        }
        let key = Self.withoutExtension(components.joined(separator: "/")).lowercased()
        if let path = byPath[key] {
            return noteId(path).map(Resolution.note) ?? .unresolved(link.target)
        }
        return existing((key as NSString).lastPathComponent).map(Resolution.note) ?? .unresolved(link.target)
    }

    /// Whether a target is Joplin's `:/` and 32 hex digits (a note or a resource by id).
    static func isJoplinNoteLink(_ target: String) -> Bool {
        let id = target.hasPrefix(":/") ? target.dropFirst(2).prefix { $0 != "#" } : ""
        return id.count == 32 && id.allSatisfy(\.isHexDigit)
    }

    private static func withoutExtension(_ path: String) -> String {
        let lowercased = path.lowercased()
        return lowercased.hasSuffix(".md") ? String(path.dropLast(3)) : lowercased.hasSuffix(".markdown") ? String(path.dropLast(9)) : path
    }
}
