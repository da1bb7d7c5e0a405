import Foundation

/// Writes tar files for tests as node-tar writes Joplin's `.jex` (POSIX ustar headers, no folder
/// entries, two empty blocks at the end), and hostile ones: links, devices, paths leaving the
/// archive, paths in extended headers.
enum TarFixture {
    /// One entry.
    enum Entry {
        /// A file with these bytes.
        case file(String, Data)
        /// A file whose path is given in a POSIX extended header (as for paths over 100 bytes).
        case extendedPath(String, Data)
        /// A symbolic link to `target`.
        case link(String, target: String)
        /// A character device.
        case device(String)

        /// A file holding UTF-8 text.
        static func text(_ path: String, _ text: String) -> Entry { .file(path, Data(text.utf8)) }
    }

    /// Writes `entries` into a new tar at `url`; without `ended`, the empty blocks that end it
    /// are left out.
    static func write(_ entries: [Entry], to url: URL, ended: Bool = true) throws {
        var bytes: [UInt8] = []
        for entry in entries {
            switch entry {
            case .file(let path, let data):
                bytes += header(path, size: data.count, type: "0") + padded([UInt8](data))
            case .extendedPath(let path, let data):
                let record = extendedRecord("path", path)
                bytes += header("PaxHeader/x", size: record.count, type: "x") + padded(record)
                bytes += header(String(path.suffix(90)), size: data.count, type: "0") + padded([UInt8](data))
            case .link(let path, let target):
                bytes += header(path, size: 0, type: "2", linkName: target)
            case .device(let path):
                bytes += header(path, size: 0, type: "3")
            }
        }
        if ended { bytes += [UInt8](repeating: 0, count: 1024) }
        try Data(bytes).write(to: url)
    }

    /// A ustar header block.
    static func header(_ path: String, size: Int, type: Character, linkName: String = "") -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, at offset: Int, width: Int) {
            for (index, byte) in text.utf8.prefix(width).enumerated() { block[offset + index] = byte }
        }
        func octal(_ value: Int, at offset: Int, width: Int) {
            put(String(repeating: "0", count: width - 1 - String(value, radix: 8).count) + String(value, radix: 8), at: offset, width: width - 1)
        }
        put(path, at: 0, width: 100)
        octal(0o644, at: 100, width: 8)
        octal(0, at: 108, width: 8)
        octal(0, at: 116, width: 8)
        octal(size, at: 124, width: 12)
        octal(1_700_000_000, at: 136, width: 12)
        block[156] = type.asciiValue ?? 0
        put(linkName, at: 157, width: 100)
        put("ustar\u{0}00", at: 257, width: 8)
        put("        ", at: 148, width: 8)
        let sum = block.reduce(0) { $0 + Int($1) }
        octal(sum, at: 148, width: 7)
        block[154] = 0
        block[155] = 0x20
        return block
    }

    /// `bytes` padded with zeros to a whole number of blocks.
    private static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (512 - bytes.count % 512) % 512)
    }

    /// One "LENGTH key=value\n" record of an extended header.
    private static func extendedRecord(_ key: String, _ value: String) -> [UInt8] {
        let body = " \(key)=\(value)\n"
        var length = body.utf8.count + 1
        while String(length).count + body.utf8.count != length { length += 1 }
        return Array("\(length)\(body)".utf8)
    }
}
