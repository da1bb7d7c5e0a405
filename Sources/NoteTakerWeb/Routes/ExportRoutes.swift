import Foundation
import NoteTakerSyncProtocol
import Hummingbird
import NoteTakerInterchange
import NoteTakerKit

/// `GET /api/v1/export`: the notes as a download — a PDF, or a zip of the JSON or Markdown
/// export — made with the same exporter as `notetaker export`. One note (`note=`) is named
/// after its title, and as Markdown with no attachments it is its `.md` file alone.
struct ExportRoutes {
    let stores: WebStores

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/v1/export") { request, _ in
            let store = try stores.store(for: request)
            guard let format = request.uri.form("format").flatMap(ExportFormat.init(rawValue:)) else {
                throw WebAPIError.invalid("Choose ?format=json, markdown or pdf. Nothing was exported.")
            }
            let selection = NoteSelection(
                folderId: try request.identifier("folder"), tag: request.uri.form("tag").flatMap { $0.isEmpty ? nil : $0 },
                noteId: try request.identifier("note"))
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("notetaker-export-\(UUID().uuidString)")
            let exported = work.appendingPathComponent(format == .pdf ? "notes.pdf" : "export")
            var download: URL
            var contentType = format == .pdf ? "application/pdf" : "application/zip"
            var name = format == .pdf ? "NoteTaker notes.pdf" : "NoteTaker \(format.rawValue) export.zip"
            do {
                try OwnerOnly.createDirectory(at: work)
            } catch {
                throw WebAPIError(.fileWriteFailed(path: work.path, reason: error.localizedDescription))
            }
            do throws(InterchangeError) {
                _ = try Exporter(store: store).export(format, selection: selection, to: exported)
                if format == .pdf {
                    download = exported
                } else if format == .markdown, selection.noteId != nil, let single = Self.onlyFile(in: exported) {
                    download = single
                    contentType = "text/markdown; charset=utf-8"
                } else {
                    download = work.appendingPathComponent("export.zip")
                    try ZipArchive.pack(exported, to: download)
                }
            } catch {
                try? FileManager.default.removeItem(at: work)
                throw WebAPIError(error)
            }
            if let noteId = selection.noteId {
                let title = (try? store.note(id: noteId).displayTitle) ?? "Note"
                name = Self.fileName(title) + "." + (download.pathExtension.isEmpty ? "zip" : download.pathExtension)
            }
            let file = download
            let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
            return Response(
                status: .ok,
                headers: [
                    .contentType: contentType,
                    .contentDisposition: "attachment; filename*=UTF-8''\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "export")",
                    .cacheControl: "no-store",
                ],
                body: ResponseBody(contentLength: size) { writer in
                    defer { try? FileManager.default.removeItem(at: work) }
                    let handle = try FileHandle(forReadingFrom: file)
                    defer { try? handle.close() }
                    while let data = try handle.read(upToCount: 1 << 16), !data.isEmpty {
                        try await writer.write(ByteBuffer(bytes: data))
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// The one file an export folder holds, if it holds just one (and no other folder).
    static func onlyFile(in folder: URL) -> URL? {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return nil }
        var found: URL?
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            guard found == nil else { return nil }
            found = url
        }
        return found
    }

    /// A note's title as a download's name: on one line, without path separators, not too long.
    static func fileName(_ title: String) -> String {
        let cleaned = title.map { $0.isNewline || $0 == "/" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true ? " " : $0 }
        let trimmed = String(cleaned).trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "Note" : String(trimmed.prefix(100))
    }
}
