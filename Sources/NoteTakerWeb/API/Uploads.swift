import Foundation
import NoteTakerSyncProtocol
import Hummingbird
import NoteTakerKit

extension RequestBody {
    /// Streams the body into a new file at `url` (memory stays flat), refusing it past
    /// `limit` bytes with `tooLarge(size)`. On any failure the file is removed.
    func save(to url: URL, limit: Int64, tooLarge: (Int64) -> WebAPIError) async throws {
        guard OwnerOnly.createFile(at: url) else {
            throw WebAPIError(.fileWriteFailed(path: url.path, reason: "the temporary file could not be created"))
        }
        do {
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var size: Int64 = 0
            for try await buffer in self {
                size += Int64(buffer.readableBytes)
                if size > limit { throw tooLarge(size) }
                try handle.write(contentsOf: Data(buffer: buffer))
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }
}
