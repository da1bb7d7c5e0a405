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
    case unreadable(path: String, reason: String)
    /// The export would overwrite something.
    case outputExists(path: String)
    /// Writing the export failed.
    case writeFailed(path: String, reason: String)
    /// A NoteTaker export that cannot be read: damaged, or from a newer version.
    case badExport(path: String, reason: String)
    /// PDF export needs libraries this machine does not have.
    case pdfUnavailable(String)

    /// A sentence to show the user.
    public var message: String {
        switch self {
        case .store(let error):
            return error.message
        case .unknownKind(let path):
            return "Cannot tell what to import from \(path): expected a NoteTaker JSON export (a folder with "
                + "notetaker-export.json), a folder of Markdown files, a .md file, or an Evernote .enex file."
        case .unreadable(let path, let reason):
            return "Cannot read \(path): \(reason)."
        case .outputExists(let path):
            return "\(path) already exists and is not an empty folder; choose a new path so nothing is overwritten."
        case .writeFailed(let path, let reason):
            return "Cannot write \(path): \(reason)."
        case .badExport(let path, let reason):
            return "\(path) is not a NoteTaker export this version can read: \(reason)."
        case .pdfUnavailable(let reason):
            return "PDF export is not available on this machine: \(reason)."
        }
    }
}

extension InterchangeError: CustomStringConvertible {
    /// The message.
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
