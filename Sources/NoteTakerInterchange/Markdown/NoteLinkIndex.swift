import Foundation
import NoteTakerKit

/// The notes of a Markdown folder by the names other notes link to them with, so that a link
/// between two of them becomes a link by id (`[text](note:ID)`) that survives renames:
/// Obsidian's `[[Note]]`, `[[Folder/Note]]`, `[[Note#Heading]]`, `[[Note|shown]]`, `![[Note]]`,
/// and relative links to `.md` files (`[text](../Other%20Note.md)`, as Joplin and NoteTaker
/// write them).
struct NoteLinkIndex {
    /// Note ids by relative path without the extension, lowercased.
    private var byPath: [String: UUID] = [:]
    /// Note ids by file name without the extension, lowercased (a name used twice is ambiguous).
    private var byName: [String: [UUID]] = [:]

    init(ids: [String: UUID]) {
        for (path, id) in ids {
            let key = Self.withoutExtension(path).lowercased()
            byPath[key] = id
            byName[(key as NSString).lastPathComponent, default: []].append(id)
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
        var target = link.target.removingPercentEncoding ?? link.target
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if target.isEmpty { return .notANote }
        if link.isWikilink {
            guard !target.contains(".") || target.lowercased().hasSuffix(".md") else { return .notANote }
            let key = Self.withoutExtension(target).lowercased()
            if let id = byPath[key] { return .note(id) }
            let matches = byName[(key as NSString).lastPathComponent] ?? []
            return matches.count == 1 ? .note(matches[0]) : .unresolved(link.target)
        }
        guard target.lowercased().hasSuffix(".md"), !target.contains("://") else { return .notANote }
        // `..` and `.` resolved by hand: the path is relative to the imported folder.
        var components: [Substring] = []
        for component in (directory + "/" + target).split(separator: "/") where component != "." {
            if component == ".." { _ = components.popLast() } else { components.append(component) }
        }
        let joined = components.joined(separator: "/")
        return byPath[Self.withoutExtension(joined).lowercased()].map(Resolution.note) ?? .unresolved(link.target)
    }

    private static func withoutExtension(_ path: String) -> String {
        let lowercased = path.lowercased()
        return lowercased.hasSuffix(".md") ? String(path.dropLast(3)) : lowercased.hasSuffix(".markdown") ? String(path.dropLast(9)) : path
    }
}
