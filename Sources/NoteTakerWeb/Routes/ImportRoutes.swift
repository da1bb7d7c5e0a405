import Foundation
import NoteTakerSyncProtocol
import Hummingbird
import NoteTakerInterchange
import NoteTakerKit

/// `POST /api/v1/import?name=FILE`: one uploaded Evernote `.enex` or Markdown `.md` file,
/// imported by the same importer as `notetaker import`; the answer is its report.
struct ImportRoutes {
    /// The largest file accepted (an Evernote export with its attachments can be large).
    static let maximumUpload: Int64 = 4 << 30
    /// The kinds of file an upload can be.
    static let extensions: Set<String> = ["enex", "md", "markdown"]

    let store: NoteStore

    func register(on router: Router<BasicRequestContext>) {
        router.post("/api/v1/import") { request, _ in
            guard let name = request.uri.form("name"), !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw WebAPIError.invalid("Give the file's name as ?name=. Nothing was imported.")
            }
            guard Self.extensions.contains((name as NSString).pathExtension.lowercased()) else {
                throw WebAPIError.invalid("Only Evernote (.enex) and Markdown (.md) files can be imported here; for a NoteTaker "
                    + "JSON export or a folder of Markdown files run `notetaker import PATH`. Nothing was imported.")
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-import-\(UUID().uuidString)")
            do {
                try OwnerOnly.createDirectory(at: folder)
            } catch {
                throw WebAPIError(.fileWriteFailed(path: folder.path, reason: error.localizedDescription))
            }
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent(Attachment.safeFileName(name))
            try await request.body.save(to: file, limit: Self.maximumUpload) { _ in
                WebAPIError(.contentTooLarge, "too_large", "The file is over 4 GB; import it with `notetaker import PATH`. Nothing was imported.")
            }
            do {
                return try JSON.response(try Importer(store: store).importItems(at: file))
            } catch let error as InterchangeError {
                throw WebAPIError(error)
            }
        }
    }
}
