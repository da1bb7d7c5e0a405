import Foundation
import NoteTakerKit

/// The items of a Standard Notes backup an import needs besides its notes: tags (each tag names
/// its notes and, with a `TagToParentTag` reference, the tag it is nested under) and files
/// (whose bytes a backup does not hold).
struct StandardNotesCatalog {
    /// The notes, in the backup's order (deleted ones left out).
    private(set) var notes: [JSONFields] = []
    /// Saved searches ("smart views"), which are not notes: named in the report.
    private(set) var warnings: [ImportReport.Entry] = []
    private var tagTitles: [String: String] = [:]
    private var tagParents: [String: String] = [:]
    private var tagsByNote: [String: [String]] = [:]
    private var fileNames: [String: String] = [:]

    init(items: [JSONFields]) {
        for var item in items {
            guard !(item.bool("deleted") ?? false) else { continue }
            let uuid = item.string("uuid") ?? ""
            var content = item.nested("content")
            switch item.string("content_type") {
            case "Note": notes.append(item)
            case "Tag":
                guard let title = content?.string("title"), !title.isEmpty else { continue }
                tagTitles[uuid] = title.replacingOccurrences(of: "/", with: "∕")
                for var reference in content?.objects("references") ?? [] {
                    guard let target = reference.string("uuid") else { continue }
                    if reference.string("reference_type") == "TagToParentTag" || reference.string("content_type") == "Tag" {
                        tagParents[uuid] = target
                    } else if ["Note", nil].contains(reference.string("content_type")) {
                        tagsByNote[target, default: []].append(uuid)
                    }
                }
            case "SN|File": fileNames[uuid] = content?.string("name") ?? uuid
            case "SN|SmartTag":
                warnings.append(.init(item: content?.string("title") ?? uuid, wording: Wording("warnStandardNotesSmartView")))
            default: continue
            }
        }
    }

    /// The tags of the note `uuid` (named by the tags, or by the note's own `references`), each
    /// as its path under the tags it is nested in (`Work/Projects`).
    func tags(of uuid: String, naming references: [String]) -> [String] {
        var seen: Set<String> = [], names: [String] = []
        for tag in tagsByNote[uuid, default: []] + references.filter({ tagTitles[$0] != nil }) where seen.insert(tag).inserted {
            names.append(path(of: tag))
        }
        return names
    }

    /// A warning for each file the note references: a backup holds a file's name, not its bytes.
    func missingFiles(of references: [String]) -> [Wording] {
        references.compactMap { fileNames[$0] }.map { Wording("warnStandardNotesFile", ["name": $0]) }
    }

    /// The tag's title under its parents' (a chain that loops stops where it would repeat).
    private func path(of tag: String) -> String {
        var names: [String] = [], seen: Set<String> = [], current: String? = tag
        while let next = current, let title = tagTitles[next], seen.insert(next).inserted {
            names.append(title)
            current = tagParents[next]
        }
        return names.reversed().joined(separator: "/")
    }
}
