import Foundation

/// One HTML tag as a browser would read it: name, closing or not, attributes with their
/// values decoded from character references.
struct HTMLTag: Equatable {
    var name: String
    var isClosing: Bool
    var attributes: [(String, String?)]

    static func == (lhs: HTMLTag, rhs: HTMLTag) -> Bool {
        lhs.name == rhs.name && lhs.isClosing == rhs.isClosing
            && lhs.attributes.map(\.0) == rhs.attributes.map(\.0) && lhs.attributes.map(\.1) == rhs.attributes.map(\.1)
    }

    /// The tag starting at `start` (a `<`) and the index after its `>`; `nil` when the text
    /// there is not a tag (`a < b`, `<!--`, an unterminated tag).
    static func parse(_ html: String, at start: String.Index) -> (HTMLTag, String.Index)? {
        var index = html.index(after: start)
        var isClosing = false
        if index < html.endIndex, html[index] == "/" {
            isClosing = true
            index = html.index(after: index)
        }
        let nameStart = index
        guard index < html.endIndex, html[index].isASCII, html[index].isLetter else { return nil }
        while index < html.endIndex, html[index].isASCII, html[index].isLetter || html[index].isNumber {
            index = html.index(after: index)
        }
        let name = html[nameStart..<index].lowercased()
        var attributes: [(String, String?)] = []
        while index < html.endIndex {
            let character = html[index]
            if character == ">" {
                return (HTMLTag(name: name, isClosing: isClosing, attributes: attributes), html.index(after: index))
            }
            if character.isWhitespace || character == "/" {
                index = html.index(after: index)
                continue
            }
            let attributeStart = index
            while index < html.endIndex, !html[index].isWhitespace, !"=>/".contains(html[index]) {
                index = html.index(after: index)
            }
            let attributeName = html[attributeStart..<index].lowercased()
            if attributeName.isEmpty {
                index = html.index(after: index)
                continue
            }
            skipWhitespace(html, &index)
            guard index < html.endIndex, html[index] == "=" else {
                attributes.append((attributeName, nil))
                continue
            }
            index = html.index(after: index)
            skipWhitespace(html, &index)
            guard index < html.endIndex else { return nil }
            let value: Substring
            if html[index] == "\"" || html[index] == "'" {
                let quote = html[index]
                let valueStart = html.index(after: index)
                guard let valueEnd = html[valueStart...].firstIndex(of: quote) else { return nil }
                value = html[valueStart..<valueEnd]
                index = html.index(after: valueEnd)
            } else {
                let valueStart = index
                while index < html.endIndex, !html[index].isWhitespace, html[index] != ">" {
                    index = html.index(after: index)
                }
                value = html[valueStart..<index]
            }
            attributes.append((attributeName, decodeReferences(value)))
        }
        return nil
    }

    private static func skipWhitespace(_ html: String, _ index: inout String.Index) {
        while index < html.endIndex, html[index].isWhitespace { index = html.index(after: index) }
    }

    /// Decodes numeric character references and the common named ones, as a browser does in
    /// an attribute value (so `javascript&#58;` is seen as `javascript:`).
    static func decodeReferences(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        let named: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "colon": ":", "tab": "\t",
            "newline": "\n", "sol": "/", "lpar": "(", "rpar": ")", "nbsp": "\u{A0}",
        ]
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";") else {
                output.append(text[index])
                index = text.index(after: index)
                continue
            }
            let body = text[text.index(after: index)..<semicolon]
            var decoded: String?
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                decoded = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if body.hasPrefix("#") {
                decoded = UInt32(body.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = named[body.lowercased()]
            }
            if let decoded {
                output += decoded
                index = text.index(after: semicolon)
            } else {
                output.append(text[index])
                index = text.index(after: index)
            }
        }
        return output
    }
}
