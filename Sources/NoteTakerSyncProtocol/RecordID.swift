import Foundation

/// The canonical spelling of record ids, for client and server alike.
extension UUID {
    /// The form ids take in the database, in NoteTaker's JSON and in sync records: lowercase text.
    public var key: String { text(digits: Self.lowercaseDigits) }

    /// The form ids take in sync messages: `uuidString`'s uppercase text, written without
    /// Foundation's formatter (which goes through `sprintf`, a tenth of a server's time in a push).
    public var wireText: String { text(digits: Self.uppercaseDigits) }

    /// Parses an id in the form `uuidString` writes, in either case: 36 characters, dashes
    /// after the 8th, 12th, 16th and 20th hexadecimal digits; `nil` for anything else. The
    /// same ids as `UUID(uuidString:)`, which goes through `sscanf`.
    public init?(wireText text: String) {
        var text = text
        guard let value = text.withUTF8({ Self.parse(canonical: $0) }) else { return nil }
        self = value
    }

    /// The id's 32 digits from `digits`, dashed as `uuidString` dashes them.
    private func text(digits: [UInt8]) -> String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digits[Int(byte >> 4)]
                    text[position + 1] = digits[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }

    /// The id in `bytes` when they are its canonical 36-character form.
    private static func parse(canonical bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 36 else { return nil }
        var value = [UInt8](repeating: 0, count: 16)
        var count = 0
        var position = 0
        while position < 36 {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard bytes[position] == UInt8(ascii: "-") else { return nil }
                position += 1
                continue
            }
            guard let high = nibble(bytes[position]), let low = nibble(bytes[position + 1]) else { return nil }
            value[count] = high << 4 | low
            count += 1
            position += 2
        }
        return UUID(uuid: (value[0], value[1], value[2], value[3], value[4], value[5], value[6], value[7],
                           value[8], value[9], value[10], value[11], value[12], value[13], value[14], value[15]))
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

    private static let lowercaseDigits = Array("0123456789abcdef".utf8)
    private static let uppercaseDigits = Array("0123456789ABCDEF".utf8)

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return character - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
