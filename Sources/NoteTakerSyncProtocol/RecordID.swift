import Foundation

/// The canonical spelling of record ids, for client and server alike.
extension UUID {
    /// The form ids take in the database, in NoteTaker's JSON and in sync records: lowercase text.
    public var key: String {
        withUnsafeBytes(of: uuid) { bytes in
            var text: [UInt8] = []
            text.reserveCapacity(36)
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
                text.append(Self.hexDigits[Int(byte >> 4)])
                text.append(Self.hexDigits[Int(byte & 0x0F)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// Parses an id as stored: 32 hexadecimal digits, dashes anywhere ignored (Foundation's
    /// parser is several times slower, and lists decode two ids a note).
    public init?(key: String) {
        var bytes = [UInt8](repeating: 0, count: 16)
        var count = 0
        var high: UInt8?
        for character in key.utf8 where character != UInt8(ascii: "-") {
            guard count < 16, let nibble = Self.nibble(character) else { return nil }
            if let first = high {
                bytes[count] = first << 4 | nibble
                count += 1
                high = nil
            } else {
                high = nibble
            }
        }
        guard count == 16, high == nil else { return nil }
        self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
