/// Writes the sync API's JSON by hand, byte for byte as `JSONEncoder` with `.sortedKeys`
/// writes it (slashes escaped, whole numbers without `.0`), several times faster: records
/// are written several times on their way from one device to another.
///
/// Values written one after another inside an array or an object are separated by commas;
/// members are written with ``key(_:)`` followed by their value, keys in byte order.
///
/// ```swift
/// var writer = WireWriter()
/// writer.object {
///     $0.key("moreComing"); $0.bool(false)
///     $0.key("token"); $0.string(token)
/// }
/// ```
public struct WireWriter: Sendable {
    /// The JSON written so far, as UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Whether the next value follows another one at the same level.
    private var needsComma = false

    /// Starts an empty document.
    public init() {
        bytes.reserveCapacity(256)
    }

    /// The JSON written so far, as text.
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Writes `null`.
    public mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Writes a number as `JSONEncoder` does: the shortest text that reads back the same,
    /// without a trailing `.0`. Not-a-number and infinities, which JSON cannot carry, are
    /// written as `null` (a ``FieldValue`` read by ``WireReader`` never holds them).
    public mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes a whole number.
    public mutating func integer(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Writes a string, escaping quotes, backslashes, slashes and control characters.
    public mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices where Self.needsEscape(utf8[index]) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(utf8[index])
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x20...: bytes.append(byte)
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: "u00".utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }

    /// Writes JSON that is already whole and valid (a record's stored fields, say) as it is.
    public mutating func raw(_ json: some Sequence<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// Writes the key of an object's next member; its value follows.
    public mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes an object; `body` writes its members.
    public mutating func object(_ body: (inout WireWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes an array, each element written by `body`.
    public mutating func array<S: Sequence>(_ elements: S, _ body: (inout WireWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }
}
