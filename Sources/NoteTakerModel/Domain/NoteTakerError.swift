import Foundation

/// Everything that can go wrong in NoteTaker, each case with a message a user can act on.
///
/// Match on the case to react in code; show ``message`` to people.
public enum NoteTakerError: Error, Sendable, Hashable {
    /// No note has this id (or id prefix).
    case noteNotFound(String)
    /// No folder has this name, path or id.
    case folderNotFound(String)
    /// No tag has this name.
    case tagNotFound(String)
    /// No attachment has this id (or id prefix).
    case attachmentNotFound(String)
    /// A note has no version with this number in its history.
    case versionNotFound(note: String, version: Int64)
    /// An id prefix or name matches more than one item; the candidates are listed.
    case ambiguousIdentifier(String, candidates: [String])
    /// A value given by the user is not acceptable; the text says which and why.
    case invalidInput(String)
    /// A folder cannot move under itself or one of its own subfolders.
    case folderCycle(folder: String, target: String)
    /// A sibling folder already has this name.
    case folderNameTaken(name: String, parent: String?)
    /// The note is in the trash; restore it first.
    case noteInTrash(String)
    /// The note is not in the trash, so it cannot be restored or purged.
    case noteNotInTrash(String)
    /// The note has no sync conflict, so there is nothing to resolve.
    case noConflict(String)
    /// The file is larger than ``Attachment/maximumSize``.
    case attachmentTooLarge(fileName: String, size: Int64)
    /// A file could not be read.
    case fileUnreadable(path: String, reason: String)
    /// A file could not be written.
    case fileWriteFailed(path: String, reason: String)
    /// The store file could not be opened (missing permissions, corrupt, not SQLite).
    case storeUnreadable(path: String, reason: String)
    /// The file is an SQLite database, but not a NoteTaker store.
    case notANoteTakerStore(path: String)
    /// The store was written by a newer NoteTaker; this version must not touch it.
    case storeFromNewerVersion(path: String)
    /// The database failed in a way the user did not cause; the text has SQLite's words.
    case database(String)
}

extension NoteTakerError: CustomStringConvertible, LocalizedError {
    /// The message to show a user.
    public var message: String {
        switch self {
        case .noteNotFound(let id):
            return "No note matches '\(id)'. Run `notetaker list` to see note ids."
        case .folderNotFound(let name):
            return "No folder matches '\(name)'. Run `notetaker folder list` to see folders."
        case .tagNotFound(let name):
            return "No tag is named '\(name)'. Run `notetaker tag list` to see tags."
        case .attachmentNotFound(let id):
            return "No attachment matches '\(id)'. Run `notetaker attachments NOTE` to see a note's attachments."
        case .versionNotFound(let note, let version):
            return "Note \(note) has no version \(version). Run `notetaker history \(note)` to see its versions."
        case .ambiguousIdentifier(let given, let candidates):
            return "'\(given)' matches more than one item; use more characters:\n"
                + candidates.map { "  \($0)" }.joined(separator: "\n")
        case .invalidInput(let text):
            return text
        case .folderCycle(let folder, let target):
            return "Cannot move folder '\(folder)' into '\(target)': that is the folder itself or one of its subfolders."
        case .folderNameTaken(let name, let parent):
            let place = parent.map { "in '\($0)'" } ?? "at the top level"
            return "A folder named '\(name)' already exists \(place)."
        case .noteInTrash(let id):
            return "Note \(id) is in the trash. Restore it first with `notetaker restore \(id)`."
        case .noteNotInTrash(let id):
            return "Note \(id) is not in the trash."
        case .noConflict(let id):
            return "Note \(id) has no sync conflict to resolve."
        case .attachmentTooLarge:
            return "Attachment too large. Maximum size is 250MB."
        case .fileUnreadable(let path, let reason):
            return "Cannot read '\(path)': \(reason)"
        case .fileWriteFailed(let path, let reason):
            return "Cannot write '\(path)': \(reason)"
        case .storeUnreadable(let path, let reason):
            return "Cannot open the store at '\(path)': \(reason). The file was left untouched."
        case .notANoteTakerStore(let path):
            return "'\(path)' is an SQLite database but not a NoteTaker store. The file was left untouched; "
                + "choose another path with --store or NOTETAKER_STORE."
        case .storeFromNewerVersion(let path):
            return "The store at '\(path)' was written by a newer version of NoteTaker. "
                + "Update NoteTaker to open it; the file was left untouched."
        case .database(let text):
            return "Database error: \(text)"
        }
    }

    /// The message to show a user.
    public var description: String { message }

    /// The message to show a user (Foundation's name for it).
    public var errorDescription: String? { message }
}
