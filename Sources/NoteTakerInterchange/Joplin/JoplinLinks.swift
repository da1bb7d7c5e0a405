/// Joplin's links between items: `:/` and an item's 32 hex digits, as a note links to another
/// note (`[title](:/id)`) or shows a resource (`![name](:/id)`, `<img src=":/id">` in HTML).
enum JoplinLinks {
    /// The ids `text` links to, in order, each once.
    static func ids(in text: String) -> [String] {
        var seen: Set<String> = [], ids: [String] = []
        for link in links(in: text) where seen.insert(link.id).inserted {
            ids.append(link.id)
        }
        return ids
    }

    /// `text` with each link whose id `target` knows pointed there instead (`:/id` replaced by
    /// what `target` answers); the others stay as written.
    static func rewritten(_ text: String, target: (String) -> String?) -> String {
        let found = links(in: text)
        guard !found.isEmpty else { return text }
        var result = "", rest = text.startIndex
        for link in found {
            guard let replacement = target(link.id) else { continue }
            result += text[rest..<link.range.lowerBound]
            result += replacement
            rest = link.range.upperBound
        }
        return result + text[rest...]
    }

    /// Every `:/` followed by exactly 32 hex digits (and not by a 33rd letter or digit), found
    /// in one pass.
    private static func links(in text: String) -> [(range: Range<String.Index>, id: String)] {
        let utf8 = text.utf8
        var found: [(Range<String.Index>, String)] = []
        var index = utf8.startIndex
        while let colon = utf8[index...].firstIndex(of: UInt8(ascii: ":")) {
            index = utf8.index(after: colon)
            guard index < utf8.endIndex, utf8[index] == UInt8(ascii: "/") else { continue }
            let start = utf8.index(after: index)
            var end = start, count = 0
            while end < utf8.endIndex, count < 33, isAlphanumeric(utf8[end]) {
                end = utf8.index(after: end)
                count += 1
            }
            guard count == 32, utf8[start..<end].allSatisfy(isHex) else { continue }
            found.append((colon..<end, String(decoding: utf8[start..<end], as: UTF8.self).lowercased()))
            index = end
        }
        return found
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}
