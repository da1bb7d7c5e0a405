/// Parsed inline nodes as ``MarkdownInline`` values: adjacent texts joined, and bare URLs
/// and e-mail addresses in text outside links made links (GitHub's extended autolinks).
struct InlineConversion {
    let nodes: [InlineParser.Node]
    /// Whether bare URLs and addresses become links.
    let autolinks: Bool
    /// Whether `[[Title]]` becomes a link to `wiki:Title`.
    let wikiLinks: Bool
    /// Whether a soft break is read as a hard one.
    let lineBreaks: Bool

    /// How deep emphasis and links may nest; what lies deeper is kept as plain text, so that
    /// no text can exhaust the stack of whatever walks the inlines.
    static let maximumDepth = 64

    func children(of parent: Int, inLink: Bool = false, depth: Int = 0) -> [MarkdownInline] {
        guard depth < Self.maximumDepth else { return [.text(plainText(of: parent))] }
        var result: [MarkdownInline] = []
        var pendingText: [UInt8] = []
        func flushText() {
            guard !pendingText.isEmpty else { return }
            let pieces = wikiLinks && !inLink ? WikiLinks.split(pendingText) : [.text(pendingText)]
            for piece in pieces {
                switch piece {
                case .link(let link): result.append(link)
                case .text(let text) where inLink || !autolinks: result.append(.text(String(decoding: text, as: UTF8.self)))
                case .text(let text): result.append(contentsOf: ExtendedAutolinks.split(text))
                }
            }
            pendingText = []
        }
        var index = nodes[parent].first
        while index >= 0 {
            let node = nodes[index]
            if node.kind == .text {
                pendingText.append(contentsOf: node.literal)
            } else {
                flushText()
                switch node.kind {
                case .softBreak: result.append(lineBreaks ? .hardBreak : .softBreak)
                case .hardBreak: result.append(.hardBreak)
                case .code: result.append(.code(String(decoding: node.literal, as: UTF8.self)))
                case .html: result.append(.html(String(decoding: node.literal, as: UTF8.self)))
                case .emphasis: result.append(.emphasis(children(of: index, inLink: inLink, depth: depth + 1)))
                case .strong: result.append(.strong(children(of: index, inLink: inLink, depth: depth + 1)))
                case .strikethrough: result.append(.strikethrough(children(of: index, inLink: inLink, depth: depth + 1)))
                case .link:
                    result.append(.link(destination: node.destination, title: node.title, children(of: index, inLink: true, depth: depth + 1)))
                case .image:
                    result.append(.image(source: node.destination, title: node.title, children(of: index, inLink: true, depth: depth + 1)))
                case .root, .text: break
                }
            }
            index = node.next
        }
        flushText()
        return result
    }

    /// The text inside a node, found without recursion.
    func plainText(of parent: Int) -> String {
        var bytes: [UInt8] = []
        var pending = [nodes[parent].first]
        while let index = pending.popLast() {
            guard index >= 0 else { continue }
            let node = nodes[index]
            pending.append(node.next)
            switch node.kind {
            case .text, .code: bytes += node.literal
            case .softBreak, .hardBreak: bytes.append(.space)
            default: pending.append(node.first)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
