/// Links and images: `[text](destination "title")`, `[text][label]`, `[label][]`, `[label]`,
/// and the same after `!`.
extension InlineParser {
    mutating func appendBracket(image: Bool, start: Int) {
        var node = Node(kind: .text, literal: Array(text[start..<(start + (image ? 2 : 1))]))
        node.isMarker = true
        let index = append(node)
        if !brackets.isEmpty { brackets[brackets.count - 1].bracketAfter = true }
        brackets.append(Bracket(node: index, delimiterBottom: delimiters.count, textStart: start + (image ? 2 : 1), isImage: image))
    }

    mutating func parseCloseBracket() {
        let closeStart = position
        position += 1
        guard let opener = brackets.last else {
            appendText(text[closeStart...closeStart])
            return
        }
        guard opener.isActive else {
            brackets.removeLast()
            appendText(text[closeStart...closeStart])
            return
        }
        var target: (destination: String, title: String?)?
        // An inline link: `(destination "title")`.
        if position < text.endIndex, text[position] == .openParen, let (inline, end) = inlineTarget(from: position + 1) {
            target = inline
            position = end
        }
        // A reference: `[label]`, `[]`, or the text itself.
        if target == nil {
            let labelStart = position
            let labelEnd = LinkSyntax.label(text, at: labelStart)
            var label: ArraySlice<UInt8>?
            if let labelEnd, labelEnd - labelStart > 2 {
                label = text[(labelStart + 1)..<(labelEnd - 1)]
            } else if !opener.bracketAfter {
                label = text[opener.textStart..<closeStart]
            }
            if let label, label.count <= 999, let reference = references[label] {
                target = (reference.destination, reference.title)
                if let labelEnd { position = labelEnd }
            }
        }
        guard let target else {
            brackets.removeLast()
            position = closeStart + 1
            appendText(text[closeStart...closeStart])
            return
        }
        var link = Node(kind: opener.isImage ? .image : .link, destination: target.destination)
        link.title = target.title
        let linkIndex = append(link)
        moveSiblings(after: opener.node, before: linkIndex, into: linkIndex)
        processEmphasis(bottom: opener.delimiterBottom)
        unlink(opener.node)
        brackets.removeLast()
        // No links in links: the brackets before this one can no longer make one.
        if !opener.isImage {
            for index in brackets.indices where !brackets[index].isImage { brackets[index].isActive = false }
        }
    }

    /// The destination and title of an inline link whose `(` is just before `start`, and
    /// the index after its `)`.
    func inlineTarget(from start: Int) -> ((String, String?), Int)? {
        var index = LinkSyntax.skipSpacesAndOneNewline(text, from: start)
        var destination = ""
        if index < text.endIndex, text[index] != .closeParen {
            guard let (parsed, end) = LinkSyntax.destination(text, at: index) else { return nil }
            destination = parsed
            index = end
        }
        var title: String?
        let afterDestination = index
        index = LinkSyntax.skipSpacesAndOneNewline(text, from: index)
        if index > afterDestination, let (parsed, end) = LinkSyntax.title(text, at: index) {
            title = parsed
            index = LinkSyntax.skipSpacesAndOneNewline(text, from: end)
        }
        guard index < text.endIndex, text[index] == .closeParen else { return nil }
        return ((destination, title), index + 1)
    }
}
