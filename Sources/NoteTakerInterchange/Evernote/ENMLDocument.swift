import Foundation
import NoteTakerKit
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An ENML note body (Evernote's XHTML) read into a small tree.
indirect enum ENMLNode {
    case element(name: String, attributes: [String: String], children: [ENMLNode])
    case text(String)

    /// The tree of an ENML document, or the parser's complaint.
    static func parse(_ enml: String) -> Result<ENMLNode, ENMLError> {
        let builder = TreeBuilder()
        let parser = XMLParser(data: Data(Self.xmlReady(enml).utf8))
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), let root = builder.root else {
            let error = parser.parserError.map(XMLErrorText.describe) ?? Wording("xmlNotWellFormed")
            return .failure(ENMLError(wording: Wording("enmlLine", ["line": String(parser.lineNumber), "reason": error])))
        }
        return .success(root)
    }

    /// The text inside, with `<br>` and block ends as line breaks (for code blocks).
    var plainText: String {
        switch self {
        case .text(let text): return text
        case .element(let name, _, let children):
            let inner = children.map(\.plainText).joined()
            if name == "br" { return "\n" }
            return ["div", "p", "li", "tr"].contains(name) && !inner.hasSuffix("\n") ? inner + "\n" : inner
        }
    }

    /// The targets of the links inside, in order.
    var linkTargets: [String] {
        guard case .element(let name, let attributes, let children) = self else { return [] }
        if name == "a", let href = attributes["href"], !href.isEmpty { return [href] }
        return children.flatMap(\.linkTargets)
    }

    /// ENML as an XML parser without the DTD can read it: no declaration or DOCTYPE, and
    /// HTML's named characters (`&nbsp;` ...) as numeric references.
    static func xmlReady(_ enml: String) -> String {
        // Evernote 10 indents the content, so whitespace comes before the declaration.
        var text = enml.trimmingCharacters(in: .whitespacesAndNewlines)
        if let start = text.range(of: "<!DOCTYPE"), let end = text[start.upperBound...].firstIndex(of: ">") {
            text.removeSubrange(start.lowerBound...end)
        }
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") { text.removeSubrange(text.startIndex..<end.upperBound) }
        guard text.contains("&") else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(12).firstIndex(of: ";") {
                let name = String(after[..<semicolon])
                if ["amp", "lt", "gt", "quot", "apos"].contains(name) || name.hasPrefix("#") {
                    result += "&\(name);"
                } else if let scalar = htmlEntities[name] {
                    result += "&#\(scalar);"
                } else {
                    result += "&amp;\(name);"
                }
                rest = after[after.index(after: semicolon)...]
            } else {
                result += "&amp;"
                rest = after
            }
        }
        return result + rest
    }

    private static let htmlEntities: [String: UInt32] = [
        "nbsp": 0xA0, "ensp": 0x2002, "emsp": 0x2003, "thinsp": 0x2009, "ndash": 0x2013, "mdash": 0x2014,
        "lsquo": 0x2018, "rsquo": 0x2019, "sbquo": 0x201A, "ldquo": 0x201C, "rdquo": 0x201D, "bdquo": 0x201E,
        "hellip": 0x2026, "laquo": 0xAB, "raquo": 0xBB, "lsaquo": 0x2039, "rsaquo": 0x203A, "bull": 0x2022,
        "middot": 0xB7, "copy": 0xA9, "reg": 0xAE, "trade": 0x2122, "deg": 0xB0, "plusmn": 0xB1, "times": 0xD7,
        "divide": 0xF7, "euro": 0x20AC, "pound": 0xA3, "yen": 0xA5, "cent": 0xA2, "sect": 0xA7, "para": 0xB6,
        "iexcl": 0xA1, "iquest": 0xBF, "shy": 0xAD, "frac12": 0xBD, "frac14": 0xBC, "frac34": 0xBE,
        "larr": 0x2190, "rarr": 0x2192, "uarr": 0x2191, "darr": 0x2193, "harr": 0x2194, "check": 0x2713,
    ]
}

/// Why an ENML body could not be read.
struct ENMLError: Error {
    var wording: Wording
}

/// Builds the ``ENMLNode`` tree from parser events.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [(name: String, attributes: [String: String], children: [ENMLNode])] = []
    private(set) var root: ENMLNode?

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        stack.append((name.lowercased(), attributes, []))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard let done = stack.popLast() else { return }
        let node = ENMLNode.element(name: done.name, attributes: done.attributes, children: done.children)
        if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        if case .text(let previous) = stack[stack.count - 1].children.last {
            stack[stack.count - 1].children[stack[stack.count - 1].children.count - 1] = .text(previous + string)
        } else {
            stack[stack.count - 1].children.append(.text(string))
        }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        self.parser(parser, foundCharacters: String(decoding: block, as: UTF8.self))
    }
}
