/// Emphasis, strong emphasis and strikethrough: delimiter runs, and matching them by the
/// specification's rules (flanking, the rule of three, openers bottoms).
extension InlineParser {
    mutating func parseDelimiterRun() {
        let character = text[position]
        let start = position
        while position < text.endIndex, text[position] == character { position += 1 }
        let count = position - start
        let before = Self.scalar(before: start, in: text)
        let after = Self.scalar(at: position, in: text)
        let beforeSpace = before.map(Self.isWhitespace) ?? true
        let afterSpace = after.map(Self.isWhitespace) ?? true
        let beforePunctuation = before.map(Self.isPunctuation) ?? false
        let afterPunctuation = after.map(Self.isPunctuation) ?? false
        let leftFlanking = !afterSpace && (!afterPunctuation || beforeSpace || beforePunctuation)
        let rightFlanking = !beforeSpace && (!beforePunctuation || afterSpace || afterPunctuation)
        var canOpen = leftFlanking
        var canClose = rightFlanking
        if character == .underscore {
            canOpen = leftFlanking && (!rightFlanking || beforePunctuation)
            canClose = rightFlanking && (!leftFlanking || afterPunctuation)
        } else if character == .tilde, count > 2 {
            (canOpen, canClose) = (false, false)
        }
        var node = Node(kind: .text, literal: Array(text[start..<position]))
        node.isMarker = true
        let index = append(node)
        if canOpen || canClose {
            delimiters.append(Delimiter(node: index, character: character, count: count, originalCount: count,
                                        canOpen: canOpen, canClose: canClose))
        }
    }

    /// Matches the delimiters from `bottom` up, wrapping what lies between a matching
    /// opener and closer; then drops those delimiters.
    mutating func processEmphasis(bottom: Int) {
        // For each character, by closer kind: the index below which no opener can match.
        var openersBottom: [UInt8: [Int]] = [:]
        for character in [UInt8.asterisk, .underscore, .tilde] { openersBottom[character] = Array(repeating: bottom - 1, count: 6) }
        var closerIndex = bottom
        while closerIndex < delimiters.count {
            let closer = delimiters[closerIndex]
            guard closer.canClose else {
                closerIndex += 1
                continue
            }
            let slot = (closer.canOpen ? 3 : 0) + closer.originalCount % 3
            let floor = openersBottom[closer.character]?[slot] ?? bottom - 1
            var openerIndex = closerIndex - 1
            var found = false
            while openerIndex > floor, openerIndex >= bottom {
                let opener = delimiters[openerIndex]
                if opener.character == closer.character, opener.canOpen {
                    if closer.character == .tilde {
                        found = opener.count == closer.count
                    } else {
                        let oddMatch = (closer.canOpen || opener.canClose) && closer.originalCount % 3 != 0
                            && (opener.originalCount + closer.originalCount) % 3 == 0
                        found = !oddMatch
                    }
                    if found { break }
                }
                openerIndex -= 1
            }
            guard found else {
                openersBottom[closer.character]?[slot] = closerIndex - 1
                if !closer.canOpen {
                    delimiters.remove(at: closerIndex)
                } else {
                    closerIndex += 1
                }
                continue
            }
            closerIndex = wrap(opener: openerIndex, closer: closerIndex, bottom: bottom, openersBottom: &openersBottom)
        }
        delimiters.removeSubrange(min(bottom, delimiters.count)...)
    }

    /// Wraps the nodes between a matched opener and closer; returns the closer's index now.
    private mutating func wrap(opener openerIndex: Int, closer closerIndex: Int, bottom: Int,
                               openersBottom: inout [UInt8: [Int]]) -> Int {
        var closerIndex = closerIndex
        let character = delimiters[closerIndex].character
        let used = character == .tilde ? delimiters[closerIndex].count
            : (delimiters[closerIndex].count >= 2 && delimiters[openerIndex].count >= 2 ? 2 : 1)
        let openerNode = delimiters[openerIndex].node
        let closerNode = delimiters[closerIndex].node
        delimiters[openerIndex].count -= used
        delimiters[closerIndex].count -= used
        nodes[openerNode].literal.removeLast(used)
        nodes[closerNode].literal.removeLast(used)
        let kind: Node.Kind = character == .tilde ? .strikethrough : used == 2 ? .strong : .emphasis
        let wrapper = insert(Node(kind: kind), after: openerNode)
        moveSiblings(after: wrapper, before: closerNode, into: wrapper)

        // The delimiters between them are spent.
        if closerIndex - openerIndex > 1 {
            delimiters.removeSubrange((openerIndex + 1)..<closerIndex)
            let removed = closerIndex - openerIndex - 1
            for (character, floors) in openersBottom {
                openersBottom[character] = floors.map { $0 > openerIndex && $0 < closerIndex ? bottom - 1 : $0 }
            }
            closerIndex -= removed
        }
        if delimiters[openerIndex].count == 0 {
            unlink(openerNode)
            delimiters.remove(at: openerIndex)
            for (character, floors) in openersBottom {
                openersBottom[character] = floors.map { $0 == openerIndex ? bottom - 1 : $0 > openerIndex ? $0 - 1 : $0 }
            }
            closerIndex -= 1
        }
        if delimiters[closerIndex].count == 0 {
            unlink(closerNode)
            delimiters.remove(at: closerIndex)
        }
        return closerIndex
    }

    // MARK: - Characters around a run

    /// The Unicode scalar ending just before `index` (nil at the start).
    static func scalar(before index: Int, in text: ArraySlice<UInt8>) -> Unicode.Scalar? {
        guard index > text.startIndex else { return nil }
        var start = index - 1
        while start > text.startIndex, text[start] & 0xC0 == 0x80 { start -= 1 }
        return String(decoding: text[start..<index], as: UTF8.self).unicodeScalars.first
    }

    /// The Unicode scalar starting at `index` (nil at the end).
    static func scalar(at index: Int, in text: ArraySlice<UInt8>) -> Unicode.Scalar? {
        guard index < text.endIndex else { return nil }
        if text[index] < 0x80 { return Unicode.Scalar(text[index]) }
        var end = index + 1
        while end < text.endIndex, text[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: text[index..<end], as: UTF8.self).unicodeScalars.first
    }

    /// Unicode whitespace as the specification means it: the Zs category, tab, line feed,
    /// form feed and carriage return.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0C, 0x0D, 0x20: true
        case 0..<0x80: false
        default: scalar.properties.generalCategory == .spaceSeparator
        }
    }

    /// Unicode punctuation as the specification means it: the P and S categories.
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return UInt8(scalar.value).isASCIIPunctuation }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }
}
