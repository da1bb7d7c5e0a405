import Foundation
import NoteTakerKit

/// Packs a folder into one `.zip` file (stored, uncompressed; UTF-8 names), so an export
/// that is a folder can be downloaded from the web app and opened by any unzip tool.
public enum ZipArchive {
    /// Writes every file under `folder` into a new zip file at `destination`, streaming.
    /// Refuses files over 4 GB (the plain zip format's limit).
    public static func pack(_ folder: URL, to destination: URL) throws(InterchangeError) {
        let output = try BufferedFile(creating: destination)
        var central = Data()
        var offset: UInt32 = 0
        var count: UInt16 = 0
        let prefix = folder.standardizedFileURL.path + "/"
        let files = (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { $0 as? URL } ?? [])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
        for file in files {
            let name = Data(String(file.standardizedFileURL.path.dropFirst(prefix.count)).utf8)
            let (crc, size) = try checksum(file)
            guard size < UInt64(UInt32.max), offset < UInt32.max / 2 else {
                throw .writeFailed(path: destination.path, reason: Wording("reasonZipTooLarge"))
            }
            var local = Data()
            local.append(le32(0x0403_4B50))
            local.append(le16(20)); local.append(le16(0x0800)); local.append(le16(0))
            local.append(le16(0)); local.append(le16(0x21))
            local.append(le32(crc)); local.append(le32(UInt32(size))); local.append(le32(UInt32(size)))
            local.append(le16(UInt16(name.count))); local.append(le16(0))
            local.append(name)
            try output.write(local)
            try copy(file, into: output)
            var entry = Data()
            entry.append(le32(0x0201_4B50))
            entry.append(le16(20)); entry.append(le16(20)); entry.append(le16(0x0800)); entry.append(le16(0))
            entry.append(le16(0)); entry.append(le16(0x21))
            entry.append(le32(crc)); entry.append(le32(UInt32(size))); entry.append(le32(UInt32(size)))
            entry.append(le16(UInt16(name.count))); entry.append(le16(0)); entry.append(le16(0))
            entry.append(le16(0)); entry.append(le16(0)); entry.append(le32(0)); entry.append(le32(offset))
            entry.append(name)
            central.append(entry)
            offset += UInt32(local.count) + UInt32(size)
            count += 1
        }
        try output.write(central)
        var end = Data()
        end.append(le32(0x0605_4B50))
        end.append(le16(0)); end.append(le16(0)); end.append(le16(count)); end.append(le16(count))
        end.append(le32(UInt32(central.count))); end.append(le32(offset)); end.append(le16(0))
        try output.write(end)
        try output.close()
    }

    private static func checksum(_ file: URL) throws(InterchangeError) -> (UInt32, UInt64) {
        var crc: UInt32 = 0xFFFF_FFFF
        var size: UInt64 = 0
        try read(file) { chunk in
            size += UInt64(chunk.count)
            for byte in chunk { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return (~crc, size)
    }

    private static func copy(_ file: URL, into output: BufferedFile) throws(InterchangeError) {
        var failure: InterchangeError?
        try read(file) { chunk in
            do throws(InterchangeError) { try output.write(chunk) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    private static func read(_ file: URL, _ body: (Data) -> Void) throws(InterchangeError) {
        guard let handle = FileHandle(forReadingAtPath: file.path) else { throw .unreadable(path: file.path, reason: Wording("reasonCannotOpen")) }
        defer { try? handle.close() }
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { body(chunk) }
        } catch {
            throw .unreadable(path: file.path, reason: .verbatim(error.localizedDescription))
        }
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    private static func le16(_ value: UInt16) -> Data { Data([UInt8(value & 0xFF), UInt8(value >> 8)]) }
    private static func le32(_ value: UInt32) -> Data {
        Data([UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)])
    }
}
