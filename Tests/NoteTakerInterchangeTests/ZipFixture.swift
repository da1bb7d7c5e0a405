import Foundation
import ZIPFoundation

/// Writes `.zip` files for tests as other programs write them: deflated entries under the
/// paths given (however hostile), links, and raw bytes patched afterwards.
enum ZipFixture {
    /// One entry: a file with these bytes, or a symbolic link to `target`.
    enum Entry {
        case file(String, Data)
        case link(String, target: String)

        /// A file holding UTF-8 text.
        static func text(_ path: String, _ text: String) -> Entry { .file(path, Data(text.utf8)) }
    }

    /// Writes `entries` into a new zip at `url`, deflated unless `stored`.
    static func write(_ entries: [Entry], to url: URL, stored: Bool = false) throws {
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        for entry in entries {
            switch entry {
            case .file(let path, let data):
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: stored ? .none : .deflate
                ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
            case .link(let path, let target):
                let data = Data(target.utf8)
                try archive.addEntry(with: path, type: .symlink, uncompressedSize: Int64(data.count)) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
        }
    }

    /// Rewrites the uncompressed size that both headers of the archive's only entry declare.
    static func declareSize(_ size: UInt32, in url: URL) throws {
        var bytes = [UInt8](try Data(contentsOf: url))
        for (signature, offset) in [([0x50, 0x4B, 0x03, 0x04] as [UInt8], 22), ([0x50, 0x4B, 0x01, 0x02], 24)] {
            guard let start = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == signature }) else { continue }
            for index in 0..<4 { bytes[start + offset + index] = UInt8((size >> (8 * UInt32(index))) & 0xFF) }
        }
        try Data(bytes).write(to: url)
    }
}
