/// Small text operations shared by the block and inline parsers.
enum InlineText {
    /// Without the spaces, tabs and line endings at both ends.
    static func trimmed(_ text: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var start = text.startIndex
        var end = text.endIndex
        while start < end, text[start] == .space || text[start] == .tab || text[start] == .newline { start += 1 }
        while end > start, text[end - 1] == .space || text[end - 1] == .tab || text[end - 1] == .newline { end -= 1 }
        return text[start..<end]
    }

    /// Backslash escapes and character references decoded (in link destinations, titles
    /// and info strings).
    static func unescaped(_ text: ArraySlice<UInt8>) -> String {
        guard text.contains(.backslash) || text.contains(.ampersand) else { return String(decoding: text, as: UTF8.self) }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == .backslash, index + 1 < text.endIndex, text[index + 1].isASCIIPunctuation {
                result.append(text[index + 1])
                index += 2
            } else if byte == .ampersand, let (decoded, end) = Entities.reference(in: text, at: index) {
                result.append(contentsOf: decoded.utf8)
                index = end
            } else {
                result.append(byte)
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A link label as references match it: trimmed, inner whitespace one space, case folded.
    static func normalizedLabel(_ label: ArraySlice<UInt8>) -> String {
        var collapsed: [UInt8] = []
        var pendingSpace = false
        for byte in trimmed(label) {
            if byte.isASCIIWhitespace {
                pendingSpace = true
            } else {
                if pendingSpace { collapsed.append(.space) }
                pendingSpace = false
                collapsed.append(byte)
            }
        }
        return String(decoding: collapsed, as: UTF8.self).lowercased().uppercased()
    }
}
