import Foundation

/// A compact way to keep one text given another close to it: the bytes the two share at the
/// start and at the end are counted, and only what lies between is kept. Typing in one
/// place, the usual change between two versions of a note, makes a delta of a few bytes.
///
/// Exact for any two texts: applying a delta rebuilds the target's bytes one for one.
enum TextDelta {
    /// The delta that turns `base` into `target`.
    static func make(from base: String, to target: String) -> Data {
        let base = Array(base.utf8)
        let target = Array(target.utf8)
        var prefix = 0
        let shorter = min(base.count, target.count)
        while prefix < shorter, base[prefix] == target[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, base[base.count - 1 - suffix] == target[target.count - 1 - suffix] { suffix += 1 }
        var delta = Data()
        appendNumber(prefix, to: &delta)
        appendNumber(suffix, to: &delta)
        delta.append(contentsOf: target[prefix..<(target.count - suffix)])
        return delta
    }

    /// The target rebuilt from `base`, or `nil` when the delta does not fit it (a damaged
    /// row: the caller reports it rather than showing wrong text).
    static func apply(_ delta: Data, to base: String) -> String? {
        let bytes = [UInt8](delta)
        var index = 0
        guard let prefix = readNumber(bytes, &index), let suffix = readNumber(bytes, &index) else { return nil }
        let base = Array(base.utf8)
        guard prefix <= base.count, suffix <= base.count - prefix else { return nil }
        var target = [UInt8]()
        target.reserveCapacity(prefix + (bytes.count - index) + suffix)
        target += base[0..<prefix]
        target += bytes[index...]
        target += base[(base.count - suffix)...]
        return String(validating: target, as: UTF8.self)
    }

    /// A non-negative number in seven-bit groups, low group first.
    private static func appendNumber(_ value: Int, to data: inout Data) {
        var value = UInt64(clamping: value)
        repeat {
            let low = UInt8(value & 0x7F)
            value >>= 7
            data.append(value == 0 ? low : low | 0x80)
        } while value != 0
    }

    private static func readNumber(_ bytes: [UInt8], _ index: inout Int) -> Int? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count, shift < 63 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return Int(exactly: value) }
            shift += 7
        }
        return nil
    }
}
