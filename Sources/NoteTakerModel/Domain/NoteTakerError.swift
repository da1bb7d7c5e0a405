import Foundation

/// Everything that can go wrong in NoteTaker, each case with a message a user can act on.
///
/// Match on the case to react in code; show ``WordedError/message(in:)`` to people.
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
    /// A value given by the user is not acceptable; the wording says which and why.
    case invalidInput(Wording)
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

extension NoteTakerError: WordedError, CustomStringConvertible, LocalizedError {
    /// What happened, to be worded in the reader's language (``Catalog/errors``).
    public var wording: Wording {
        switch self {
        case .noteNotFound(let id): Wording("noteNotFound", ["id": id])
        case .folderNotFound(let name): Wording("folderNotFound", ["name": name])
        case .tagNotFound(let name): Wording("tagNotFound", ["name": name])
        case .attachmentNotFound(let id): Wording("attachmentNotFound", ["id": id])
        case .versionNotFound(let note, let version): Wording("versionNotFound", ["note": note, "version": String(version)])
        case .ambiguousIdentifier(let given, let candidates):
            Wording("ambiguousIdentifier", ["given": given, "candidates": candidates.map { "\n  \($0)" }.joined()])
        case .invalidInput(let wording): wording
        case .folderCycle(let folder, let target): Wording("folderCycle", ["folder": folder, "target": target])
        case .folderNameTaken(let name, nil): Wording("folderNameTakenAtTop", ["name": name])
        case .folderNameTaken(let name, let parent?): Wording("folderNameTaken", ["name": name, "parent": parent])
        case .noteInTrash(let id): Wording("noteInTrash", ["id": id])
        case .noteNotInTrash(let id): Wording("noteNotInTrash", ["id": id])
        case .noConflict(let id): Wording("noConflict", ["id": id])
        case .attachmentTooLarge: Wording("attachmentTooLarge")
        case .fileUnreadable(let path, let reason): Wording("fileUnreadable", ["path": path, "reason": reason])
        case .fileWriteFailed(let path, let reason): Wording("fileWriteFailed", ["path": path, "reason": reason])
        case .storeUnreadable(let path, let reason): Wording("storeUnreadable", ["path": path, "reason": reason])
        case .notANoteTakerStore(let path): Wording("notANoteTakerStore", ["path": path])
        case .storeFromNewerVersion(let path): Wording("storeFromNewerVersion", ["path": path])
        case .database(let text): Wording("databaseError", ["reason": text])
        }
    }

    /// The message in English.
    public var description: String { message }

    /// The message in English (Foundation's name for it).
    public var errorDescription: String? { message }
}
