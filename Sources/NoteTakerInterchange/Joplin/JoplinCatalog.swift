import Foundation
import NoteTakerKit

/// What a `.jex` holds, read once before any note goes in: its notebooks, tags, resources and
/// the tags of each note, and where each note's file is (its text is read again when the note
/// is imported, so that memory holds one note's text at a time).
struct JoplinCatalog {
    /// A note's file and the fields the import needs before reading its text.
    struct NoteEntry {
        var file: TarReader.File
        var id: String
        var isConflict: Bool
    }

    /// The notes, in the archive's order.
    private(set) var notes: [NoteEntry] = []
    /// Notebooks and resources by id.
    private(set) var folders: [String: JoplinItem] = [:]
    private(set) var resources: [String: JoplinItem] = [:]
    /// Items that are not notes, notebooks, resources, tags or tag links, and tag links that
    /// name a note or a tag not in the export: named in the report.
    private(set) var warnings: [ImportReport.Entry] = []
    private var noteIndex: [String: Int] = [:]
    private var tagTitles: [String: String] = [:]
    private var tagLinks: [(note: String, tag: String, path: String)] = []
    private var tagsByNote: [String: [String]] = [:]

    /// The bytes read from the end of a note's file for its fields (they take about one
    /// kilobyte; a note whose fields are longer is read whole).
    static let tailSize: Int64 = 2_048

    /// Reads every item file of `tar`; one that is not an item, or is encrypted, is skipped
    /// and named in `batcher`'s report.
    init(tar: TarReader, batcher: ImportBatcher) throws(InterchangeError) {
        for file in tar.files where JoplinImporter.isItem(file.path) {
            // Of a long note, only the end is read here: its fields.
            if file.size > Self.tailSize,
               let fields = JoplinItem(text: String(decoding: try tar.data(file, last: Self.tailSize), as: UTF8.self), fieldsOnly: true),
               fields.kind == .note, !fields.flag("encryption_applied") {
                add(fields, path: file.path, file: file)
                continue
            }
            guard file.size <= JoplinImporter.maximumItemSize,
                  let item = JoplinItem(text: String(decoding: try tar.data(file), as: UTF8.self)) else {
                batcher.skip(file.path, reason: Wording("skipJoplinNotItem"))
                continue
            }
            if item.flag("encryption_applied") {
                batcher.skip(file.path, reason: Wording("skipJoplinEncrypted"))
                continue
            }
            add(item, path: file.path, file: file)
        }
        for link in tagLinks {
            guard noteIndex[link.note] != nil, let title = tagTitles[link.tag] else {
                warnings.append(.init(item: link.path, wording: Wording("warnJoplinTagLinkBroken")))
                continue
            }
            tagsByNote[link.note, default: []].append(title)
        }
    }

    /// Whether the export held anything Joplin writes.
    var holdsItems: Bool {
        !notes.isEmpty || !folders.isEmpty || !resources.isEmpty || !tagTitles.isEmpty
    }

    /// The note with Joplin id `id`, unless it is a conflict copy (which is not imported).
    func note(_ id: String) -> NoteEntry? {
        noteIndex[id].map { notes[$0] }.flatMap { $0.isConflict ? nil : $0 }
    }

    /// The id NoteTaker gives the note with Joplin id `id`.
    func noteID(_ id: String, identity: DerivedIdentity) -> UUID {
        identity.importedID("joplin:\(id)")
    }

    /// The titles of the tags of the note with Joplin id `id`.
    func tags(of id: String) -> [String] {
        tagsByNote[id] ?? []
    }

    private mutating func add(_ item: JoplinItem, path: String, file: TarReader.File) {
        switch item.kind {
        case .note:
            noteIndex[item.id] = notes.count
            notes.append(NoteEntry(file: file, id: item.id, isConflict: item.flag("is_conflict")))
        case .folder: folders[item.id] = item
        case .resource: resources[item.id] = item
        case .tag: if !item.title.isEmpty { tagTitles[item.id] = item.title }
        case .noteTag:
            if let note = item.reference("note_id"), let tag = item.reference("tag_id") { tagLinks.append((note, tag, path)) }
        case nil: warnings.append(.init(item: path, wording: Wording("warnJoplinItemNotRead", ["type": String(item.type)])))
        }
    }
}
