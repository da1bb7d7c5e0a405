import Foundation

extension UUID {
    /// The id whose 128 bits are `high` then `low` (big-endian), with the RFC 9562 variant and
    /// `version` written over their bits (the version in bits 48–51, the variant in 64–65).
    package init(version: UInt64, high: UInt64, low: UInt64) {
        let high = high & ~0xF000 | (version & 0xF) << 12
        let low = low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        self.init(uuid: (
            byte(high, 56), byte(high, 48), byte(high, 40), byte(high, 32),
            byte(high, 24), byte(high, 16), byte(high, 8), byte(high, 0),
            byte(low, 56), byte(low, 48), byte(low, 40), byte(low, 32),
            byte(low, 24), byte(low, 16), byte(low, 8), byte(low, 0)))
    }
}
