import Foundation
import NoteTakerKit

/// The folder "Archive" an import puts another app's archived notes into (Keep, Standard Notes
/// and Bear keep them out of their main list, as a folder does): made when the first one comes,
/// under an id of its source's, so that importing again finds it.
struct ArchiveFolder {
    /// The source's name in the folder's id (`keep`, `standardnotes`, `textbundle`).
    let source: String
    private var made: UUID?

    init(source: String) {
        self.source = source
    }

    /// The folder for a note: the archive's when it `isArchived`, else none.
    mutating func folder(isArchived: Bool, store: NoteStore, identity: DerivedIdentity) throws(InterchangeError) -> UUID? {
        guard isArchived else { return nil }
        if let made { return made }
        let id = try storeCall { () throws(NoteTakerError) in
            try store.importFolder(Folder(id: identity.importedID("\(source)-folder:Archive"), name: "Archive"))
        }
        made = id
        return id
    }
}
