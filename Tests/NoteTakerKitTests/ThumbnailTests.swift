import Foundation
import Testing
@testable import NoteTakerKit

/// A BMP picture of `width` × `height` pixels (a colour gradient), as cameras' files are
/// large: 3 bytes a pixel, uncompressed.
func bmpData(width: Int, height: Int) -> Data {
    let rowBytes = (width * 3 + 3) / 4 * 4
    func little(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    var bytes: [UInt8] = Array("BM".utf8) + little(54 + rowBytes * height, 4) + little(0, 4) + little(54, 4)
    bytes += little(40, 4) + little(width, 4) + little(height, 4) + little(1, 2) + little(24, 2) + little(0, 24)
    for y in 0..<height {
        var row = [UInt8](repeating: 0, count: rowBytes)
        for x in 0..<width {
            row[x * 3] = UInt8(x * 255 / width)
            row[x * 3 + 1] = UInt8(y * 255 / height)
            row[x * 3 + 2] = 128
        }
        bytes += row
    }
    return Data(bytes)
}

@Suite("Thumbnails")
struct ThumbnailTests {
    @Test func aPictureGetsASmallThumbnailWhenAttachedAndLosesItWithTheFile() throws {
        let directory = TemporaryDirectory()
        let store = try makeDiskStore(in: directory)
        let note = try store.make("Trip")
        let photo = try directory.write(bmpData(width: 1600, height: 1000), named: "photo.bmp")
        let attachment = try store.attachFile(at: photo, toNote: note.id)
        let thumbnail = try #require(store.thumbnail(for: attachment), "gdk-pixbuf is installed by the test command")
        let jpeg = try Data(contentsOf: thumbnail)
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG")
        #expect(jpeg.count * 50 < Int(attachment.fileSize), "\(jpeg.count) bytes for a \(attachment.fileSize)-byte picture")
        let size = try #require(Self.jpegSize(jpeg))
        #expect(size == (320, 200), "\(size)")
        try store.detach(attachmentId: attachment.id)
        #expect(!FileManager.default.fileExists(atPath: thumbnail.path), "the thumbnail outlived its picture")
    }

    @Test func otherFilesAndDamagedPicturesHaveNone() throws {
        let directory = TemporaryDirectory()
        let store = try makeDiskStore(in: directory)
        let note = try store.make("Files")
        let text = try store.attachFile(at: try directory.write(Data("hello".utf8), named: "notes.txt"), toNote: note.id)
        #expect(store.thumbnail(for: text) == nil)
        var damaged = bmpData(width: 40, height: 40)
        damaged.replaceSubrange(10..<30, with: [UInt8](repeating: 0xFF, count: 20))
        let broken = try store.attachFile(at: try directory.write(damaged, named: "broken.bmp"), toNote: note.id)
        #expect(broken.kind == .image)
        #expect(store.thumbnail(for: broken) == nil, "a picture that cannot be read has no thumbnail: the original is shown")
    }

    /// The width and height in a JPEG's start-of-frame segment.
    static func jpegSize(_ jpeg: Data) -> (Int, Int)? {
        let bytes = [UInt8](jpeg)
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xC2).contains(marker) {
                return (Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]), Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]))
            }
            index += 2 + length
        }
        return nil
    }
}
