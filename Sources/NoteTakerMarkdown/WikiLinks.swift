/// Links between notes by title, as Obsidian writes them: `[[Title]]`, `[[Title|shown text]]`,
/// `[[Title#Heading]]`; their address is `wiki:` and the target as written.
enum WikiLinks {
    enum Piece {
        case text([UInt8])
        case link(MarkdownInline)
    }

    /// Text split into plain runs and wiki links.
    static func split(_ text: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var plainStart = 0
        var index = 0
        while index + 4 < text.count {
            guard text[index] == .openBracket, text[index + 1] == .openBracket else {
                index += 1
                continue
            }
            var end = index + 2
            while end + 1 < text.count, text[end] != .closeBracket, text[end] != .openBracket, text[end] != .newline { end += 1 }
            guard end + 1 < text.count, text[end] == .closeBracket, text[end + 1] == .closeBracket, end > index + 2 else {
                index += 2
                continue
            }
            let inner = text[(index + 2)..<end]
            let pipe = inner.firstIndex(of: .pipe)
            let target = String(decoding: inner[..<(pipe ?? inner.endIndex)], as: UTF8.self).trimmed
            let shown = pipe.map { String(decoding: inner[($0 + 1)...], as: UTF8.self).trimmed } ?? target
            guard !target.isEmpty else {
                index = end + 2
                continue
            }
            if index > plainStart { pieces.append(.text(Array(text[plainStart..<index]))) }
            pieces.append(.link(.link(destination: "wiki:" + target, title: nil, [.text(shown.isEmpty ? target : shown)])))
            index = end + 2
            plainStart = index
        }
        if plainStart < text.count { pieces.append(.text(Array(text[plainStart...]))) }
        return pieces
    }
}

extension String {
    /// Without spaces at either end.
    var trimmed: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
