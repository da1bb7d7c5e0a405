import Foundation

/// One 512-byte header of a tar archive, read as POSIX ustar, GNU tar and node-tar (which
/// writes Joplin's `.jex`) write them: its entry's name, size and kind.
struct TarHeader {
    /// What the entry is.
    enum Kind {
        /// A regular file.
        case file
        /// A folder.
        case directory
        /// A hard or symbolic link.
        case link
        /// A device or a pipe.
        case special
        /// A POSIX extended header: `key=value` records for the next entry.
        case extended
        /// A GNU long name: the next entry's path.
        case longName
        /// A header that says nothing an import needs (a global extended header, a GNU long
        /// link name).
        case ignored
    }

    /// The path as the header writes it (with the ustar prefix, when there is one).
    let name: String
    /// The size of the entry's data.
    let size: Int64
    let kind: Kind

    /// Reads `block`; `nil` when its checksum fails or a field is not a number.
    init?(_ block: Data) {
        let bytes = [UInt8](block)
        guard bytes.count == 512, let stated = Self.number(bytes[148..<156]) else { return nil }
        // The checksum is the sum of the header's bytes with its own field read as spaces;
        // some old writers summed them as signed bytes.
        var unsigned = 0, signed = 0
        for (position, byte) in bytes.enumerated() {
            let value = (148..<156).contains(position) ? 0x20 : byte
            unsigned += Int(value)
            signed += Int(Int8(bitPattern: value))
        }
        guard stated == unsigned || stated == signed, let size = Self.number(bytes[124..<136]) else { return nil }
        self.size = size
        var name = Self.text(bytes[0..<100])
        // POSIX ustar ("ustar\0") puts the start of a long path in a prefix; GNU's "ustar  "
        // uses those bytes for other things.
        if bytes[257..<263].elementsEqual("ustar\0".utf8) {
            let prefix = Self.text(bytes[345..<500])
            if !prefix.isEmpty { name = prefix + "/" + name }
        }
        self.name = name
        switch bytes[156] {
        case UInt8(ascii: "0"), 0, UInt8(ascii: "7"): kind = name.hasSuffix("/") ? .directory : .file
        case UInt8(ascii: "5"): kind = .directory
        case UInt8(ascii: "1"), UInt8(ascii: "2"): kind = .link
        case UInt8(ascii: "x"): kind = .extended
        case UInt8(ascii: "L"): kind = .longName
        case UInt8(ascii: "g"), UInt8(ascii: "K"): kind = .ignored
        default: kind = .special
        }
    }

    /// What the extended headers and long names before an entry say of it.
    struct Overrides {
        var path: String?
        var size: Int64?

        /// Takes in the data of an extended header or a long name; `false` when it is malformed.
        mutating func take(_ data: Data, as kind: Kind) -> Bool {
            let bytes = [UInt8](data)
            if kind == .longName {
                path = TarHeader.text(bytes[...])
                return true
            }
            // Records are "LENGTH key=value\n", LENGTH counting the whole record.
            var start = 0
            while start < bytes.count {
                guard let space = bytes[start...].firstIndex(of: UInt8(ascii: " ")),
                      let length = Int(String(decoding: bytes[start..<space], as: UTF8.self)),
                      length > space - start, start + length <= bytes.count, bytes[start + length - 1] == UInt8(ascii: "\n"),
                      let equals = bytes[(space + 1)..<(start + length)].firstIndex(of: UInt8(ascii: "=")) else { return false }
                let key = String(decoding: bytes[(space + 1)..<equals], as: UTF8.self)
                let value = String(decoding: bytes[(equals + 1)..<(start + length - 1)], as: UTF8.self)
                switch key {
                case "path": path = value
                case "size":
                    guard let size = Int64(value), size >= 0 else { return false }
                    self.size = size
                default: break
                }
                start += length
            }
            return true
        }
    }

    /// A NUL-ended text field.
    fileprivate static func text(_ field: ArraySlice<UInt8>) -> String {
        String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// A number field: octal digits (with spaces or NULs around them), or base-256 when its
    /// first byte has the high bit set (GNU, for sizes of 8 GB and more); `nil` when it is
    /// neither or does not fit.
    static func number(_ field: ArraySlice<UInt8>) -> Int64? {
        guard let first = field.first else { return nil }
        var value: Int64 = 0
        if first & 0x80 != 0 {
            for (position, byte) in field.enumerated() {
                let digit = Int64(position == 0 ? byte & 0x7F : byte)
                let shifted = value.multipliedReportingOverflow(by: 256)
                let sum = shifted.partialValue.addingReportingOverflow(digit)
                guard !shifted.overflow, !sum.overflow else { return nil }
                value = sum.partialValue
            }
            return value
        }
        let digits = field.drop { $0 == UInt8(ascii: " ") || $0 == 0 }.prefix { $0 != UInt8(ascii: " ") && $0 != 0 }
        guard !digits.isEmpty else { return field.allSatisfy { $0 == UInt8(ascii: " ") || $0 == 0 } ? 0 : nil }
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) else { return nil }
            let shifted = value.multipliedReportingOverflow(by: 8)
            guard !shifted.overflow else { return nil }
            value = shifted.partialValue + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
