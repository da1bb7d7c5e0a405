import Foundation
import NoteTakerKit
import NoteTakerSyncProtocol

/// A folder only its owner reads, for the files an import stages before the store copies them
/// in (an attachment inflated from an archive, a resource decoded from base64). Remove it once
/// the last batch is written.
struct ScratchFolder {
    /// Where it is.
    let url: URL

    /// Creates a new, empty folder in the temporary directory; `prefix` names what made it.
    init(prefix: String) throws(InterchangeError) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        do {
            try OwnerOnly.createDirectory(at: url)
        } catch {
            throw .writeFailed(path: url.path, reason: .verbatim(error.localizedDescription))
        }
    }

    /// A new file name in the folder.
    func newFile() -> URL {
        url.appendingPathComponent(UUID().uuidString)
    }

    /// Deletes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
