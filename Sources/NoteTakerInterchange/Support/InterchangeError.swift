import Foundation
import NoteTakerKit

/// Why an import or export as a whole could not run, with a message a user can act on.
/// (One bad note never ends an import: it is skipped and named in the ``ImportReport``.)
public enum InterchangeError: Error, Sendable, Hashable {
    /// The store refused or failed.
    case store(NoteTakerError)
    /// Nothing at this path is a NoteTaker export, a Markdown folder or file, or an Evernote file.
    case unknownKind(path: String)
    /// A file or folder could not be read.
    case unreadable(path: String, reason: Wording)
    /// The export would overwrite something.
    case outputExists(path: String)
    /// Writing the export failed.
    case writeFailed(path: String, reason: Wording)
    /// A NoteTaker export that cannot be read: damaged, or from a newer version.
    case badExport(path: String, reason: Wording)
    /// PDF export needs libraries this machine does not have.
    case pdfUnavailable(Wording)
    /// An archive that is not read at all: not a zip, damaged, or one that could harm the
    /// machine (paths leaving it, links, a zip bomb). Nothing of it was imported.
    case badArchive(path: String, reason: Wording)

}

extension InterchangeError: WordedError, CustomStringConvertible {
    /// What to tell the user, to be worded in their language (``Catalog/errors``).
    public var wording: Wording {
        switch self {
        case .store(let error): error.wording
        case .unknownKind(let path): Wording("importUnknownKind", ["path": path])
        case .unreadable(let path, let reason): Wording("interchangeUnreadable", ["path": path, "reason": reason])
        case .outputExists(let path): Wording("exportOutputExists", ["path": path])
        case .writeFailed(let path, let reason): Wording("exportWriteFailed", ["path": path, "reason": reason])
        case .badExport(let path, let reason): Wording("importBadExport", ["path": path, "reason": reason])
        case .pdfUnavailable(let reason): Wording("pdfUnavailable", ["reason": reason])
        case .badArchive(let path, let reason): Wording("importBadArchive", ["path": path, "reason": reason])
        }
    }

    /// The message in English.
    public var description: String { message }
}

/// Runs `body`, turning the store's errors into ``InterchangeError/store(_:)``.
func storeCall<T>(_ body: () throws(NoteTakerError) -> T) throws(InterchangeError) -> T {
    do {
        return try body()
    } catch {
        throw .store(error)
    }
}
