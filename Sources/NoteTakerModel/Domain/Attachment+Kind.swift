import Foundation

extension Attachment.Kind {
    /// Tells image, video or file from the first bytes of the content, falling back to the
    /// file name's extension when the bytes say nothing.
    public static func detect(header: [UInt8], fileName: String) -> Attachment.Kind {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            header.count >= offset + bytes.count && Array(header[offset..<offset + bytes.count]) == bytes
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

        if starts([0x89, 0x50, 0x4E, 0x47]) || starts([0xFF, 0xD8, 0xFF]) || ascii("GIF8") || ascii("BM")
            || (ascii("RIFF") && ascii("WEBP", at: 8)) {
            return .image
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) || (ascii("RIFF") && ascii("AVI ", at: 8)) {
            return .video
        }
        if ascii("ftyp", at: 4), header.count >= 12 {
            let brand = String(decoding: header[8..<12], as: UTF8.self)
            if ["heic", "heix", "mif1", "msf1", "avif"].contains(brand) { return .image }
            return .video
        }
        let ext = (fileName as NSString).pathExtension.lowercased()
        if ["png", "jpg", "jpeg", "gif", "webp", "heic", "heif", "avif", "bmp", "svg", "tif", "tiff"].contains(ext) {
            return .image
        }
        if ["mp4", "m4v", "mov", "webm", "mkv", "avi", "3gp"].contains(ext) {
            return .video
        }
        return .file
    }
}

extension Attachment {
    /// A file name safe to show and to write into a folder: the last path component only,
    /// with no control characters, slashes or leading dots; "attachment" when nothing is left.
    public static func safeFileName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
            .trimmingCharacters(in: .whitespaces)
        let undotted = String(cleaned.drop { $0 == "." })
        let limited = String(undotted.prefix(255))
        return limited.isEmpty ? "attachment" : limited
    }
}
