import Foundation
import NoteTakerSyncProtocol
import Hummingbird
import NoteTakerInterchange
import NoteTakerKit

/// `POST /api/v1/import?name=FILE`: one uploaded file (an Evernote `.enex`, a Google Keep
/// Takeout, Simplenote or Notion `.zip`, Simplenote's `notes.json`, a Standard Notes backup `.zip` or `.txt`, a Joplin `.jex`, a
/// `.textpack` or Bear `.bear2bk`, a Markdown `.md`), imported by the
/// same importer as `notetaker import`; the answer is its report.
///
/// With `batch=ID&path=RELATIVE/PATH`, the file is one of several imported as one folder
/// (``ImportBatch``): any file, answered `202 {"kept": N}`, until the one sent with
/// `last=true`, whose answer is the report of the whole folder's import.
///
/// With `progress=UUID`, `GET /api/v1/import/progress?id=UUID` answers how far that import has
/// got while it runs (``ImportProgressBoard``).
struct ImportRoutes {
    /// The largest file accepted (an Evernote export with its attachments can be large).
    static let maximumUpload: Int64 = 4 << 30
    /// The kinds of file an upload can be.
    static let extensions: Set<String> = ["enex", "zip", "json", "txt", "jex", "textpack", "bear2bk", "md", "markdown"]

    let store: NoteStore
    /// The running imports' progress, for the page's progress bar.
    let board = ImportProgressBoard()

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/v1/import/progress") { request, _ in
            guard let id = request.uri.form("id").flatMap(UUID.init(uuidString:)) else {
                throw WebAPIError.invalid("Give the import's progress id (a UUID) as ?id=.")
            }
            guard let entry = board.read(id.uuidString) else {
                throw WebAPIError(.notFound, "not_found", "No import with the progress id '\(id.uuidString)' is running.")
            }
            return try JSON.response(entry)
        }
        router.post("/api/v1/import") { request, _ in
            if let batch = request.uri.form("batch") { return try await keep(request, inBatch: batch) }
            guard let name = request.uri.form("name"), !name.isEmpty else {
                throw WebAPIError.invalid("Give the file's name as ?name=. Nothing was imported.")
            }
            guard let fileName = Self.uploadName(name) else {
                throw WebAPIError(.badRequest, "invalid_input", wording: Wording("importFileKind"))
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-import-\(UUID().uuidString)")
            do {
                try OwnerOnly.createDirectory(at: folder)
            } catch {
                throw WebAPIError(.fileWriteFailed(path: folder.path, reason: error.localizedDescription))
            }
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent(fileName)
            try await request.body.save(to: file, limit: Self.maximumUpload) { _ in
                WebAPIError(.contentTooLarge, "too_large", wording: Wording("importFileTooLarge"))
            }
            guard Self.size(of: file) > 0 else { throw WebAPIError(.badRequest, "invalid_input", wording: Wording("importFileEmpty", ["name": name])) }
            return try importReport(at: file, request)
        }
    }

    /// Imports what is at `url` and answers its report, telling ``board`` how far it has got
    /// when the request names a progress id (`?progress=UUID`).
    private func importReport(at url: URL, _ request: Request) throws -> Response {
        let progressId = request.uri.form("progress").flatMap(UUID.init(uuidString:))?.uuidString
        var handler: InterchangeProgressHandler?
        if let progressId {
            let board = self.board
            board.start(progressId)
            handler = { board.update(progressId, $0) }
        }
        defer { if let progressId { board.finish(progressId) } }
        do {
            return try JSON.response(try Importer(store: store).importItems(at: url, progress: handler), language: request.language)
        } catch let error as InterchangeError {
            throw WebAPIError(error)
        }
    }

    /// Keeps one file of a batch; with `last=true`, imports the batch.
    private func keep(_ request: Request, inBatch name: String) async throws -> Response {
        let batch = try ImportBatch(named: name)
        guard let path = request.uri.form("path"), let file = batch.destination(of: path) else {
            batch.remove()
            throw WebAPIError.invalid("Give each file of a batch its relative path as ?path=, with no hidden or '..' part. Nothing was imported.")
        }
        do {
            try batch.makeFolders(above: file)
            let room = Self.maximumUpload - batch.size()
            try await request.body.save(to: file, limit: max(0, room)) { _ in
                WebAPIError(.contentTooLarge, "too_large", wording: Wording("importFilesTooLarge"))
            }
            guard Self.size(of: file) > 0 else { throw WebAPIError(.badRequest, "invalid_input", wording: Wording("importFileEmpty", ["name": path])) }
        } catch {
            batch.remove()
            throw error
        }
        guard request.uri.form("last") == "true" else {
            return try JSON.response(["kept": batch.fileCount()], status: .accepted)
        }
        defer { batch.remove() }
        return try importReport(at: batch.folder, request)
    }

    private static func size(of file: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
    }

    /// The name an upload called `name` is imported under: its name without the extension,
    /// made safe for a file and a folder name (at most 200 characters, on one line; an
    /// Evernote file's notes go into a folder of that name), and its extension in lower case;
    /// `nil` unless `name` ends in one of ``extensions`` (any case) after at least one
    /// character that is not `/`. (The OpenAPI document's pattern for `name` says the same.)
    static func uploadName(_ name: String) -> String? {
        let scalars = Array(name.unicodeScalars)
        for fileExtension in extensions {
            let suffix = Array(("." + fileExtension).unicodeScalars)
            guard scalars.count > suffix.count,
                  zip(scalars.suffix(suffix.count), suffix).allSatisfy({ String($0).lowercased() == String($1) }),
                  scalars[scalars.count - suffix.count - 1] != "/"
            else { continue }
            let given = String(String.UnicodeScalarView(scalars.dropLast(suffix.count)))
            let oneLine = given.split(whereSeparator: \.isNewline).joined(separator: " ")
            let stem = String(Attachment.safeFileName(oneLine).unicodeScalars.prefix(200))
            return stem + "." + fileExtension
        }
        return nil
    }
}
