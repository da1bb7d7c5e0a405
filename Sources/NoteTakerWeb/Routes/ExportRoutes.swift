import Foundation
import NoteTakerSyncProtocol
import Hummingbird
import NoteTakerInterchange
import NoteTakerKit

/// `GET /api/v1/export`: the notes as a download — a PDF, or a zip of the JSON or Markdown
/// export — made with the same exporter as `notetaker export`.
struct ExportRoutes {
    let store: NoteStore

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/v1/export") { request, _ in
            guard let format = request.uri.form("format").flatMap(ExportFormat.init(rawValue:)) else {
                throw WebAPIError.invalid("Choose ?format=json, markdown or pdf. Nothing was exported.")
            }
            let selection = NoteSelection(
                folderId: try request.identifier("folder"), tag: request.uri.form("tag").flatMap { $0.isEmpty ? nil : $0 },
                noteId: try request.identifier("note"))
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-export-\(UUID().uuidString)")
            let exported = work.appendingPathComponent(format == .pdf ? "notes.pdf" : "export")
            let download: URL
            do {
                try OwnerOnly.createDirectory(at: work)
            } catch {
                throw WebAPIError(.fileWriteFailed(path: work.path, reason: error.localizedDescription))
            }
            do throws(InterchangeError) {
                _ = try Exporter(store: store).export(format, selection: selection, to: exported)
                if format == .pdf {
                    download = exported
                } else {
                    download = work.appendingPathComponent("export.zip")
                    try ZipArchive.pack(exported, to: download)
                }
            } catch {
                try? FileManager.default.removeItem(at: work)
                throw WebAPIError(error)
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: download.path)[.size] as? NSNumber)?.intValue ?? 0
            let name = format == .pdf ? "NoteTaker notes.pdf" : "NoteTaker \(format.rawValue) export.zip"
            return Response(
                status: .ok,
                headers: [
                    .contentType: format == .pdf ? "application/pdf" : "application/zip",
                    .contentDisposition: "attachment; filename*=UTF-8''\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "export")",
                    .cacheControl: "no-store",
                ],
                body: ResponseBody(contentLength: size) { writer in
                    defer { try? FileManager.default.removeItem(at: work) }
                    let handle = try FileHandle(forReadingFrom: download)
                    defer { try? handle.close() }
                    while let data = try handle.read(upToCount: 1 << 16), !data.isEmpty {
                        try await writer.write(ByteBuffer(bytes: data))
                    }
                    try await writer.finish(nil)
                })
        }
    }
}
