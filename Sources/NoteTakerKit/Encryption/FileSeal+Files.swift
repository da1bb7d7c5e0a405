import Crypto
import Foundation

/// Whole files sealed and opened a chunk at a time (docs/encryption.md §5), from one file to
/// another: neither side ever holds more than a chunk.
extension FileSeal {
    /// A sealed chunk's length on disk: a full chunk and its tag.
    static let sealedChunkSize = chunkSize + 16

    /// Seals the file at `source` into `destination` (replaced), for `address`, under
    /// version `keyVersion` of the zone's data key. Reading or writing a file throws the file
    /// system's error.
    public static func sealFile(
        at source: URL, to destination: URL, zone: String, zoneKey: SymmetricKey, keyVersion: Int, address: String
    ) throws {
        let seal = FileSeal(zone: zone, zoneKey: zoneKey, keyVersion: keyVersion, address: address)
        try copying(from: source, to: destination) { (input, output) throws in
            try output.write(contentsOf: seal.header)
            var index: UInt64 = 0
            var chunk = try read(input, count: chunkSize)
            while true {
                // A full chunk may be followed by nothing: the file then ends with an empty chunk.
                let next = chunk.count == chunkSize ? try read(input, count: chunkSize) : nil
                try output.write(contentsOf: try seal.seal(chunk, index: index, last: next == nil))
                guard let next else { return }
                chunk = next
                index += 1
            }
        }
    }

    /// Opens the sealed file at `source` into `destination` (replaced), for `address`, with
    /// the zone's data key of the version its header names (`key(version)`; `nil` when this
    /// device does not have it). A file changed, cut short, reordered or sealed for another
    /// address is ``EncryptionError/notAuthentic``, and `destination` is removed. Reading or
    /// writing a file throws the file system's error. Returns the opened file's SHA-256
    /// (lowercase hex).
    @discardableResult
    public static func openFile(
        at source: URL, to destination: URL, zone: String, address: String, key: (Int) -> SymmetricKey?
    ) throws -> String {
        var hasher = SHA256()
        do {
            try copying(from: source, to: destination) { (input, output) throws in
                let header = try read(input, count: headerSize)
                guard header.count == headerSize, header.prefix(4) == Data("NTF1".utf8) else { throw EncryptionError.notAuthentic }
                let version = header.dropFirst(4).prefix(4).reduce(0) { $0 << 8 | Int($1) }
                guard let zoneKey = key(version) else { throw EncryptionError.notAuthentic }
                let seal = try FileSeal(opening: header, zone: zone, zoneKey: zoneKey, address: address)
                var index: UInt64 = 0
                while true {
                    let sealed = try read(input, count: sealedChunkSize)
                    // Only the last chunk is shorter than a full one: a full one at the end was cut.
                    let last = sealed.count < sealedChunkSize
                    let chunk = try seal.open(sealed, index: index, last: last)
                    hasher.update(data: chunk)
                    try output.write(contentsOf: chunk)
                    if last { return }
                    index += 1
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw error
        }
        return hasher.finalize().lowercaseHex
    }

    private static func copying(from source: URL, to destination: URL, _ body: (FileHandle, FileHandle) throws -> Void) throws {
        let input = try FileHandle(forReadingFrom: source)
        try? FileManager.default.removeItem(at: destination)
        guard FileManager.default.createFile(atPath: destination.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
        let output = try FileHandle(forWritingTo: destination)
        defer {
            try? input.close()
            try? output.close()
        }
        try body(input, output)
    }

    private static func read(_ handle: FileHandle, count: Int) throws -> Data {
        var data = Data()
        while data.count < count, let more = try handle.read(upToCount: count - data.count), !more.isEmpty {
            data += more
        }
        return data
    }
}
