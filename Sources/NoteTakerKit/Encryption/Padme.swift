import Foundation

/// Padmé padding (Nikitin et al., 2019; docs/encryption.md §3.1): a length is rounded up so
/// that only O(log log L) of its bits show, at most 12 % more bytes.
public enum Padme {
    /// The padded length of `length` bytes.
    public static func length(_ length: Int) -> Int {
        guard length >= 2 else { return length }
        let exponent = Int.bitWidth - 1 - length.leadingZeroBitCount
        let exponentBits = Int.bitWidth - exponent.leadingZeroBitCount
        let mask = (1 << (exponent - exponentBits)) - 1
        return (length + mask) & ~mask
    }

    /// `plaintext`, then 0x80, then zeros up to `length(count + 1)` (ISO/IEC 7816-4).
    public static func pad(_ plaintext: Data) -> Data {
        var padded = plaintext
        padded.append(0x80)
        padded.append(Data(count: length(plaintext.count + 1) - padded.count))
        return padded
    }

    /// The plaintext of a padded value; `malformed` when the padding is not there.
    public static func unpad(_ padded: Data) throws(EncryptionError) -> Data {
        guard let marker = padded.lastIndex(where: { $0 != 0 }), padded[marker] == 0x80 else { throw .malformed }
        return Data(padded[padded.startIndex..<marker])
    }
}
