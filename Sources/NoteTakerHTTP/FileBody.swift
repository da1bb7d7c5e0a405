import Foundation
import Hummingbird

extension ResponseBody {
    /// The file at `url`, streamed in 64 kB pieces so that no file is ever whole in memory;
    /// `size` is its length in bytes, when known.
    public static func file(at url: URL, size: Int?) -> ResponseBody {
        ResponseBody(contentLength: size) { writer in
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            while let data = try handle.read(upToCount: 1 << 16), !data.isEmpty {
                try await writer.write(ByteBuffer(bytes: data))
            }
            try await writer.finish(nil)
        }
    }
}
