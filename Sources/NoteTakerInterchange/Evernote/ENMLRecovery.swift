import Foundation

/// Reading ENML that is not well-formed, as a browser reads HTML: unclosed elements close
/// where their parent does, stray end tags are ignored, `<br>` and the like need no end. What
/// Evernote's own editors leave behind (an unclosed `<div>`, a `<br>` without its slash, an
/// `&` on its own) is read this way, so the note is imported with a warning instead of lost.
enum ENMLRecovery {
    /// Elements that never have content.
    static let voidElements: Set<String> = ["br", "hr", "img", "en-media", "en-todo", "input", "col", "area", "wbr", "en-crypt"]

    /// The tree of whatever can be read, or `nil` when nothing can (no text and no media).
    static func parse(_ enml: String) -> ENMLNode? {
        var stack: [(name: String, attributes: [String: String], children: [ENMLNode])] = [("en-note", [:], [])]
        func append(_ node: ENMLNode) {
            if case .text(let text) = node, case .text(let previous)? = stack[stack.count - 1].children.last {
                stack[stack.count - 1].children[stack[stack.count - 1].children.count - 1] = .text(previous + text)
            } else {
                stack[stack.count - 1].children.append(node)
            }
        }
        func close() {
            let done = stack.removeLast()
            append(.element(name: done.name, attributes: done.attributes, children: done.children))
        }
        var rest = ENMLNode.xmlReady(enml)[...]
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "<") else {
                append(.text(decoded(rest)))
                break
            }
            if open > rest.startIndex { append(.text(decoded(rest[..<open]))) }
            rest = rest[open...]
            if rest.hasPrefix("<![CDATA["), let end = rest.range(of: "]]>") {
                append(.text(String(rest[rest.index(rest.startIndex, offsetBy: 9)..<end.lowerBound])))
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--") || rest.hasPrefix("<!") || rest.hasPrefix("<?") {
                let end = rest.hasPrefix("<!--") ? rest.range(of: "-->")?.upperBound : rest.firstIndex(of: ">").map(rest.index(after:))
                rest = rest[(end ?? rest.endIndex)...]
            } else if let tag = Tag(rest) {
                rest = rest[tag.end...]
                if tag.isClosing {
                    // Closes the nearest open element of that name, and those left open inside it.
                    if let index = stack.lastIndex(where: { $0.name == tag.name }), index > 0 {
                        while stack.count > index { close() }
                    }
                } else if tag.selfClosing || voidElements.contains(tag.name) {
                    append(.element(name: tag.name, attributes: tag.attributes, children: []))
                } else if tag.name != "en-note" {
                    stack.append((tag.name, tag.attributes, []))
                }
            } else {
                // A `<` that starts no tag is text.
                append(.text("<"))
                rest = rest.dropFirst()
            }
        }
        while stack.count > 1 { close() }
        let root = ENMLNode.element(name: "en-note", attributes: [:], children: stack[0].children)
        return root.hasContent ? root : nil
    }

    /// Text with its character references decoded (an unknown one, or a lone `&`, kept).
    static func decoded(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        let wrapped = "<t>" + ENMLNode.xmlReady(String(text)).replacingOccurrences(of: "<", with: "&lt;") + "</t>"
        if case .success(let node) = ENMLNode.parse(wrapped) { return node.plainText }
        return String(text)
    }

    /// A start or end tag: its name (lowercase) and attributes.
    struct Tag {
        var name: String
        var attributes: [String: String] = [:]
        var isClosing = false
        var selfClosing = false
        var end: Substring.Index

        init?(_ text: Substring) {
            var index = text.index(after: text.startIndex)
            isClosing = index < text.endIndex && text[index] == "/"
            if isClosing { index = text.index(after: index) }
            let nameStart = index
            while index < text.endIndex, text[index].isLetter || text[index].isNumber || text[index] == "-" || text[index] == ":" {
                index = text.index(after: index)
            }
            guard index > nameStart, text[nameStart].isLetter, let close = text[index...].firstIndex(of: ">") else { return nil }
            name = text[nameStart..<index].lowercased()
            end = text.index(after: close)
            var inside = text[index..<close]
            if inside.hasSuffix("/") {
                selfClosing = true
                inside = inside.dropLast()
            }
            attributes = Self.attributes(inside)
        }

        /// `name="value"`, `name='value'`, `name=value` and bare names.
        static func attributes(_ text: Substring) -> [String: String] {
            var result: [String: String] = [:]
            var rest = text
            while true {
                rest = rest.drop { $0.isWhitespace }
                let name = rest.prefix { !$0.isWhitespace && $0 != "=" }
                guard !name.isEmpty else { return result }
                rest = rest[name.endIndex...].drop { $0.isWhitespace }
                var value = ""
                if rest.first == "=" {
                    rest = rest.dropFirst().drop { $0.isWhitespace }
                    if let quote = rest.first, quote == "\"" || quote == "'" {
                        let body = rest.dropFirst()
                        let close = body.firstIndex(of: quote) ?? body.endIndex
                        value = String(body[..<close])
                        rest = close < body.endIndex ? body[body.index(after: close)...] : body[body.endIndex...]
                    } else {
                        let raw = rest.prefix { !$0.isWhitespace }
                        value = String(raw)
                        rest = rest[raw.endIndex...]
                    }
                }
                result[name.lowercased()] = decoded(value[...])
            }
        }
    }
}

extension ENMLNode {
    /// Whether the tree holds any text or media.
    var hasContent: Bool {
        switch self {
        case .text(let text): return !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        case .element(let name, _, let children): return name == "en-media" || name == "img" || children.contains { $0.hasContent }
        }
    }
}
