/// Bytes written as lowercase hexadecimal, as the project writes digests (SHA-256 sums of
/// files, keyed file addresses) and random secrets.
extension Sequence where Element == UInt8 {
    /// Each byte as two lowercase hexadecimal digits, in order.
    package var lowercaseHex: String {
        let table = Array("0123456789abcdef".utf8)
        var digits: [UInt8] = []
        digits.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            digits.append(table[Int(byte >> 4)])
            digits.append(table[Int(byte & 0x0f)])
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
