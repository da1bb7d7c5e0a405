import Foundation
import Hummingbird

/// The page, its scripts, styles and string catalog, built into the executable (see the
/// EmbedFiles plugin), so `notetaker serve` runs wherever the executable is copied.
enum StaticFiles {
    /// Serves the files, `index.html` for `/`, revalidated on every load.
    static func middleware<Context: RequestContext>() -> FileMiddleware<Context, EmbeddedFileProvider> {
        FileMiddleware(
            fileProvider: EmbeddedFileProvider(folder: "Public", files: EmbeddedFiles.files, modified: EmbeddedFiles.modified),
            cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true)
    }

    /// The OpenAPI document of `/api/v1`.
    static func openAPIDocument() throws -> Data {
        guard let document = EmbeddedFiles.files["openapi.json"] else {
            throw WebAPIError(.internalServerError, "missing_resource", "The API description is missing from this build.")
        }
        return document
    }
}

/// Hummingbird's file provider over files held in memory: one folder of `EmbeddedFiles`.
struct EmbeddedFileProvider: FileProvider {
    /// What `FileMiddleware` needs to know of a file or folder.
    struct FileAttributes: FileMiddlewareFileAttributes {
        let isFolder: Bool
        let size: Int
        let modificationDate: Date
    }

    private let files: [String: Data]
    private let folders: Set<String>
    private let modified: Date

    /// The files under `folder` in `files`, addressed by their path below it.
    init(folder: String, files: [String: Data], modified: Date) {
        let prefix = folder + "/"
        var served: [String: Data] = [:]
        for (path, data) in files where path.hasPrefix(prefix) {
            served[String(path.dropFirst(prefix.count))] = data
        }
        var folders: Set<String> = [""]
        for path in served.keys {
            var parts = path.split(separator: "/").dropLast()
            while !parts.isEmpty {
                folders.insert(parts.joined(separator: "/"))
                parts = parts.dropLast()
            }
        }
        self.files = served
        self.folders = folders
        self.modified = modified
    }

    func getFileIdentifier(_ path: String) -> String? {
        let trimmed = path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        return files[trimmed] != nil || folders.contains(trimmed) ? trimmed : nil
    }

    func getAttributes(id: String) async throws -> FileAttributes? {
        if let data = files[id] {
            return FileAttributes(isFolder: false, size: data.count, modificationDate: modified)
        }
        return folders.contains(id) ? FileAttributes(isFolder: true, size: 0, modificationDate: modified) : nil
    }

    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        guard let data = files[id] else { throw HTTPError(.notFound) }
        return ResponseBody(byteBuffer: ByteBuffer(bytes: data))
    }

    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        guard let data = files[id], range.lowerBound >= 0, range.upperBound < data.count else {
            throw HTTPError(.rangeNotSatisfiable)
        }
        return ResponseBody(byteBuffer: ByteBuffer(bytes: data[range]))
    }
}
