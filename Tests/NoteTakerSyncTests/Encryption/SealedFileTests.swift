import Crypto
import Foundation
import NoteTakerKit
import Testing

/// Whole files sealed and opened a chunk at a time (docs/encryption.md §5), at the lengths
/// where chunks begin and end.
@Suite struct SealedFileTests {
    @Test(arguments: [0, 1, FileSeal.chunkSize - 1, FileSeal.chunkSize, FileSeal.chunkSize + 1, 3 * FileSeal.chunkSize])
    func aFileOpensAsItWasSealed(length: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sealed-file-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let (plain, sealed, opened) = (folder.appendingPathComponent("plain"), folder.appendingPathComponent("sealed"), folder.appendingPathComponent("opened"))
        try content.write(to: plain)
        let key = SymmetricKey(size: .bits256)
        try FileSeal.sealFile(at: plain, to: sealed, zone: "private", zoneKey: key, keyVersion: 1, address: "abc")
        let chunks = length / FileSeal.chunkSize + 1
        #expect(try Data(contentsOf: sealed).count == FileSeal.headerSize + length + 16 * chunks)
        let hash = try FileSeal.openFile(at: sealed, to: opened, zone: "private", address: "abc") { $0 == 1 ? key : nil }
        #expect(try Data(contentsOf: opened) == content)
        #expect(hash == SHA256.hash(data: content).map { String(format: "%02x", $0) }.joined())

        #expect(throws: EncryptionError.notAuthentic) {
            try FileSeal.openFile(at: sealed, to: opened, zone: "private", address: "another") { _ in key }
        }
        #expect(!FileManager.default.fileExists(atPath: opened.path), "nothing is left of a file that did not open")
        #expect(throws: EncryptionError.notAuthentic) {
            try FileSeal.openFile(at: sealed, to: opened, zone: "private", address: "abc") { _ in nil }
        }
    }
}
