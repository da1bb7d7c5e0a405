/// GitHub's extended autolinks: `www.…`, `http://…`, `https://…`, `ftp://…` and e-mail addresses in
/// text become links without angle brackets.
enum ExtendedAutolinks {
    /// Text split into plain runs and links.
    static func split(_ text: [UInt8]) -> [MarkdownInline] {
        var result: [MarkdownInline] = []
        var plainStart = 0
        var index = 0
        func emit(_ end: Int) {
            if end > plainStart { result.append(.text(String(decoding: text[plainStart..<end], as: UTF8.self))) }
        }
        while index < text.count {
            let byte = text[index]
            guard byte == UInt8(ascii: "w") || byte == UInt8(ascii: "h") || byte == UInt8(ascii: "f") || byte == .at else {
                index += 1
                continue
            }
            if byte == .at {
                if let (start, end) = email(text, at: index), start >= plainStart {
                    emit(start)
                    let address = String(decoding: text[start..<end], as: UTF8.self)
                    result.append(.link(destination: "mailto:" + address, title: nil, [.text(address)]))
                    plainStart = end
                    index = end
                    continue
                }
                index += 1
                continue
            }
            let precededWell = index == 0 || text[index - 1].isASCIIWhitespace || Self.mayPrecedeLink(text[index - 1])
            if precededWell, let end = url(text, at: index) {
                emit(index)
                let written = String(decoding: text[index..<end], as: UTF8.self)
                let destination = byte == UInt8(ascii: "w") ? "http://" + written : written
                result.append(.link(destination: destination, title: nil, [.text(written)]))
                plainStart = end
                index = end
                continue
            }
            index += 1
        }
        emit(text.count)
        return result
    }

    /// `*`, `_`, `~` and `(` may come right before a link.
    static func mayPrecedeLink(_ byte: UInt8) -> Bool {
        byte == .asterisk || byte == .underscore || byte == .tilde || byte == .openParen
    }

    static let www = Array("www.".utf8), http = Array("http://".utf8), https = Array("https://".utf8), ftp = Array("ftp://".utf8)

    static func hasPrefix(_ text: [UInt8], _ prefix: [UInt8], at index: Int) -> Bool {
        text.count - index >= prefix.count && text[index..<(index + prefix.count)].elementsEqual(prefix)
    }

    /// The end of a `www.` or `http(s)://` link starting at `start`.
    static func url(_ text: [UInt8], at start: Int) -> Int? {
        var index: Int
        if hasPrefix(text, www, at: start) {
            index = start
        } else if hasPrefix(text, http, at: start) {
            index = start + http.count
        } else if hasPrefix(text, https, at: start) {
            index = start + https.count
        } else if hasPrefix(text, ftp, at: start) {
            index = start + ftp.count
        } else {
            return nil
        }
        guard let domainEnd = domain(text, at: index) else { return nil }
        index = domainEnd
        while index < text.count, !text[index].isASCIIWhitespace, text[index] != .lessThan { index += 1 }
        return trimmedEnd(text, start: start, end: index)
    }

    /// A valid domain (segments of letters, digits, `-` and `_`, with at least one period
    /// and no `_` in the last two): its end.
    static func domain(_ text: [UInt8], at start: Int) -> Int? {
        var index = start
        var segments: [(start: Int, underscore: Bool)] = [(start, false)]
        while index < text.count {
            let byte = text[index]
            if byte == .period {
                guard index + 1 < text.count, text[index + 1].isAlphanumeric || text[index + 1] == .dash || text[index + 1] == .underscore
                    || text[index + 1] >= 0x80 else { break }
                segments.append((index + 1, false))
            } else if byte == .underscore {
                segments[segments.count - 1].underscore = true
            } else if !(byte.isAlphanumeric || byte == .dash || byte >= 0x80) {
                break
            }
            index += 1
        }
        guard index > start, segments.count >= 2, !segments.suffix(2).contains(where: \.underscore) else { return nil }
        return index
    }

    /// A link's end without trailing punctuation, unbalanced `)` and a trailing entity.
    static func trimmedEnd(_ text: [UInt8], start: Int, end: Int) -> Int {
        var end = end
        while end > start {
            let last = text[end - 1]
            if Self.isTrailingPunctuation(last) {
                end -= 1
            } else if last == .closeParen {
                let opens = text[start..<end].filter { $0 == .openParen }.count
                let closes = text[start..<end].filter { $0 == .closeParen }.count
                guard closes > opens else { break }
                end -= 1
            } else if last == .semicolon {
                var ampersand = end - 2
                while ampersand > start, text[ampersand].isAlphanumeric { ampersand -= 1 }
                guard ampersand >= start, text[ampersand] == .ampersand, ampersand < end - 2 else { break }
                end = ampersand
            } else {
                break
            }
        }
        return end
    }

    /// Punctuation at a link's end that is not part of it.
    static func isTrailingPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case .question, .exclamation, .period, .colon, UInt8(ascii: ","), .asterisk, .underscore, .tilde, .quote, .apostrophe: true
        default: false
        }
    }

    /// An e-mail address around the `@` at `at`: its start and end.
    static func email(_ text: [UInt8], at: Int) -> (Int, Int)? {
        var start = at
        while start > 0, text[start - 1].isAlphanumeric || text[start - 1] == .period || text[start - 1] == .dash
                || text[start - 1] == .underscore || text[start - 1] == .plus {
            start -= 1
        }
        guard start < at else { return nil }
        var end = at + 1
        var periods = 0
        while end < text.count, text[end].isAlphanumeric || text[end] == .dash || text[end] == .underscore
                || (text[end] == .period && end + 1 < text.count && text[end + 1].isAlphanumeric) {
            if text[end] == .period { periods += 1 }
            end += 1
        }
        guard periods > 0, end > at + 1, text[end - 1] != .dash, text[end - 1] != .underscore else { return nil }
        return (start, end)
    }
}

/// E-mail addresses as CommonMark's autolinks take them.
enum EmailSyntax {
    static let localAllowed = Set(".!#$%&'*+/=?^_`{|}~-".utf8)

    static func isAddress(_ text: ArraySlice<UInt8>) -> Bool {
        guard let at = text.firstIndex(of: .at), at > text.startIndex else { return false }
        guard text[..<at].allSatisfy({ $0.isAlphanumeric || localAllowed.contains($0) }) else { return false }
        let domain = text[(at + 1)...]
        guard !domain.isEmpty else { return false }
        for label in domain.split(separator: .period, omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.first?.isAlphanumeric == true, label.last?.isAlphanumeric == true,
                  label.allSatisfy({ $0.isAlphanumeric || $0 == .dash }) else { return false }
        }
        return true
    }
}
