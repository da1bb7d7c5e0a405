import Foundation
import NoteTakerKit

/// The resources of a `.jex` (Joplin's attachments: an item with the name, type and extension,
/// and the bytes in `resources/<id>.<extension>`, or `resources/<id>` when it has none), staged
/// for the notes that show them.
struct JoplinResources {
    /// What became of a link to a resource.
    enum Outcome {
        /// Copied into the scratch folder, to be attached; its size.
        case staged(NoteImport.File, bytes: Int64)
        /// Its bytes are not in the export (the resource's name).
        case missing(String)
        /// Over the largest attachment NoteTaker takes.
        case tooLarge(String)
        /// No resource has this id.
        case unknown
    }

    private let tar: TarReader
    private let items: [String: JoplinItem]
    /// The files of `resources/` by name without extension: the resource's id.
    private let files: [String: [TarReader.File]]
    private var used: Set<String> = []

    init(tar: TarReader, catalog: JoplinCatalog) {
        self.tar = tar
        items = catalog.resources
        files = Dictionary(grouping: tar.files.filter { ArchivePath.folder($0.path) == "resources" }) {
            ArchivePath.name(ArchivePath.stem($0.path)).lowercased()
        }
    }

    /// Copies the bytes of the resource `id` into `scratch` as an attachment of the note `noteId`.
    mutating func stage(_ id: String, for noteId: UUID, identity: DerivedIdentity, into scratch: ScratchFolder) throws(InterchangeError) -> Outcome {
        guard let item = items[id] else { return .unknown }
        let name = Self.fileName(item)
        let wanted = "resources/\(id)" + (item.fields["file_extension"].map { $0.isEmpty ? "" : ".\($0)" } ?? "")
        guard let file = tar.file(wanted) ?? files[id]?.first else { return .missing(name) }
        used.insert(file.path)
        guard file.size <= Attachment.maximumSize else { return .tooLarge(name) }
        let source = scratch.newFile()
        try tar.copy(file, to: source)
        let staged = NoteImport.File(
            id: identity.importedID("\(noteId.key):joplin-resource:\(id)"), fileName: name, source: source, createdAt: item.userDate("created_time"))
        return .staged(staged, bytes: file.size)
    }

    /// The files of `resources/` no note showed.
    func unused() -> [String] {
        files.values.joined().map(\.path).filter { !used.contains($0) }.sorted()
    }

    /// The name an attachment shows: the resource's title (what Joplin shows), else the name of
    /// the file it was made from, else its id; with the resource's extension when it has none.
    static func fileName(_ item: JoplinItem) -> String {
        let title = item.title.isEmpty ? item.fields["filename", default: ""] : item.title
        let name = title.isEmpty ? item.id : title
        guard let fileExtension = item.fields["file_extension"], !fileExtension.isEmpty, ArchivePath.fileExtension(name).isEmpty else {
            return name
        }
        return name + "." + fileExtension
    }
}
