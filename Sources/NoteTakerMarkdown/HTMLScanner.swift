/// Raw HTML as CommonMark recognizes it: the seven kinds of HTML block, and inline tags,
/// comments, processing instructions, declarations and CDATA sections.
enum HTMLScanner {
    static let literalTextTags: [String] = ["script", "pre", "style", "textarea"]
    static let blockTags: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col", "colgroup",
        "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame",
        "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "iframe", "legend", "li", "link",
        "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup", "option", "p", "param", "search", "section",
        "summary", "table", "tbody", "td", "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]

    /// The kind (1–7) of HTML block a line starting with `<` opens, if any.
    static func blockStart(_ line: ArraySlice<UInt8>) -> Int? {
        let text = line
        func hasPrefix(_ prefix: String, caseInsensitive: Bool = false) -> Bool {
            let bytes = Array(prefix.utf8)
            guard text.count >= bytes.count else { return false }
            return zip(text, bytes).allSatisfy { caseInsensitive ? $0 | 0x20 == $1 | 0x20 : $0 == $1 }
        }
        let start = text.startIndex
        for tag in literalTextTags where hasPrefix("<" + tag, caseInsensitive: true) {
            let after = start + 1 + tag.utf8.count
            if after == text.endIndex || text[after] == .greaterThan || text[after].isASCIIWhitespace { return 1 }
        }
        if hasPrefix("<!--") { return 2 }
        if hasPrefix("<?") { return 3 }
        if text.count > 2, hasPrefix("<!"), text[start + 2].isLetter { return 4 }
        if hasPrefix("<![CDATA[") { return 5 }
        var index = start + 1
        if index < text.endIndex, text[index] == .slash { index += 1 }
        let nameStart = index
        while index < text.endIndex, text[index].isAlphanumeric { index += 1 }
        if index > nameStart, blockTags.contains(String(decoding: text[nameStart..<index], as: UTF8.self).lowercased()),
           index == text.endIndex || text[index].isASCIIWhitespace || text[index] == .greaterThan
            || (text[index] == .slash && index + 1 < text.endIndex && text[index + 1] == .greaterThan) {
            return 6
        }
        if let end = openTag(text, at: start) ?? closingTag(text, at: start) {
            let name = String(decoding: text[nameStart..<index], as: UTF8.self).lowercased()
            if !literalTextTags.contains(name), text[end...].allSatisfy(\.isASCIIWhitespace) { return 7 }
        }
        return nil
    }

    /// Whether a line ends an HTML block of kind 1–5.
    static func endsBlock(type: Int, _ line: ArraySlice<UInt8>) -> Bool {
        switch type {
        case 1:
            let lowered = String(decoding: line, as: UTF8.self).lowercased()
            return literalTextTags.contains { lowered.contains("</\($0)>") }
        case 2: return contains(line, "-->")
        case 3: return contains(line, "?>")
        case 4: return line.contains(.greaterThan)
        case 5: return contains(line, "]]>")
        default: return false
        }
    }

    static func contains(_ text: ArraySlice<UInt8>, _ needle: String, from start: Int? = nil) -> Bool {
        find(text, needle, from: start ?? text.startIndex) != nil
    }

    /// Where `needle` first occurs in `text` from `start`: the index after it.
    static func find(_ text: ArraySlice<UInt8>, _ needle: String, from start: Int) -> Int? {
        let bytes = Array(needle.utf8)
        guard text.endIndex - start >= bytes.count else { return nil }
        var index = start
        while index + bytes.count <= text.endIndex {
            if text[index] == bytes[0], text[index..<(index + bytes.count)].elementsEqual(bytes) { return index + bytes.count }
            index += 1
        }
        return nil
    }

    /// The end of the inline raw HTML starting at `start` (a `<`), if there is any.
    static func inline(_ text: ArraySlice<UInt8>, at start: Int) -> Int? {
        guard start + 1 < text.endIndex else { return nil }
        let next = text[start + 1]
        if next.isLetter { return openTag(text, at: start) }
        if next == .slash { return closingTag(text, at: start) }
        if next == .question { return find(text, "?>", from: start + 2) }
        guard next == .exclamation, start + 2 < text.endIndex else { return nil }
        let third = text[start + 2]
        if third == .dash {
            guard start + 3 < text.endIndex, text[start + 3] == .dash else { return nil }
            let body = start + 4
            if body < text.endIndex, text[body] == .greaterThan { return body + 1 }
            if body + 1 < text.endIndex, text[body] == .dash, text[body + 1] == .greaterThan { return body + 2 }
            return find(text, "-->", from: body)
        }
        if third == .openBracket {
            guard find(text[start...], "<![CDATA[", from: start) == start + 9 else { return nil }
            return find(text, "]]>", from: start + 9)
        }
        if third.isLetter { return text[(start + 2)...].firstIndex(of: .greaterThan).map { $0 + 1 } }
        return nil
    }

    /// `<name attribute="value" … />`: the index after it.
    static func openTag(_ text: ArraySlice<UInt8>, at start: Int) -> Int? {
        var index = start + 1
        guard index < text.endIndex, text[index].isLetter else { return nil }
        while index < text.endIndex, text[index].isAlphanumeric || text[index] == .dash { index += 1 }
        while true {
            let beforeSpace = index
            while index < text.endIndex, text[index].isASCIIWhitespace { index += 1 }
            guard index < text.endIndex else { return nil }
            if text[index] == .greaterThan { return index + 1 }
            if text[index] == .slash { return index + 1 < text.endIndex && text[index + 1] == .greaterThan ? index + 2 : nil }
            // An attribute, after whitespace.
            guard index > beforeSpace, isAttributeNameStart(text[index]) else { return nil }
            index += 1
            while index < text.endIndex, isAttributeNameStart(text[index]) || text[index].isDigit || text[index] == .period
                    || text[index] == .dash { index += 1 }
            var afterName = index
            while afterName < text.endIndex, text[afterName].isASCIIWhitespace { afterName += 1 }
            guard afterName < text.endIndex, text[afterName] == .equals else { continue }
            index = afterName + 1
            while index < text.endIndex, text[index].isASCIIWhitespace { index += 1 }
            guard index < text.endIndex else { return nil }
            let quote = text[index]
            if quote == .quote || quote == .apostrophe {
                guard let close = text[(index + 1)...].firstIndex(of: quote) else { return nil }
                index = close + 1
            } else {
                let valueStart = index
                while index < text.endIndex, !text[index].isASCIIWhitespace, !isUnquotedValueStop(text[index]) { index += 1 }
                guard index > valueStart else { return nil }
            }
        }
    }

    /// `</name >`: the index after it.
    static func closingTag(_ text: ArraySlice<UInt8>, at start: Int) -> Int? {
        var index = start + 2
        guard index < text.endIndex, text[start + 1] == .slash, text[index].isLetter else { return nil }
        while index < text.endIndex, text[index].isAlphanumeric || text[index] == .dash { index += 1 }
        while index < text.endIndex, text[index].isASCIIWhitespace { index += 1 }
        return index < text.endIndex && text[index] == .greaterThan ? index + 1 : nil
    }

    private static func isUnquotedValueStop(_ byte: UInt8) -> Bool {
        switch byte {
        case .quote, .apostrophe, .equals, .lessThan, .greaterThan, .backtick: true
        default: false
        }
    }

    private static func isAttributeNameStart(_ byte: UInt8) -> Bool {
        byte.isLetter || byte == .underscore || byte == .colon
    }
}
