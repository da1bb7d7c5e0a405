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
    ///
    /// Linear in the number of delimiters, as the specification's algorithm is: the
    /// delimiters keep their indices and are taken out of a doubly linked list (`stack`), so
    /// that removing one costs nothing however many lie above it; and for each kind of
    /// closer, `openersBottom` remembers the index below which no opener can match it.
    mutating func processEmphasis(bottom: Int) {
        guard bottom < delimiters.count else { return }
        var stack = DelimiterStack(bottom: bottom, count: delimiters.count)
        // For each character, by closer kind: the index below which no opener can match.
        var openersBottom: [UInt8: [Int]] = [:]
        for character in [UInt8.asterisk, .underscore, .tilde] { openersBottom[character] = Array(repeating: bottom - 1, count: 6) }
        var closerIndex = bottom
        while closerIndex < delimiters.count {
            let closer = delimiters[closerIndex]
            guard closer.canClose else {
                closerIndex = stack.next(closerIndex)
                continue
            }
            let slot = (closer.canOpen ? 3 : 0) + closer.originalCount % 3
            let floor = openersBottom[closer.character]?[slot] ?? bottom - 1
            var openerIndex = stack.previous(closerIndex)
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
                openerIndex = stack.previous(openerIndex)
            }
            guard found else {
                openersBottom[closer.character]?[slot] = closerIndex - 1
                let next = stack.next(closerIndex)
                if !closer.canOpen { stack.remove(closerIndex) }
                closerIndex = next
                continue
            }
            closerIndex = wrap(opener: openerIndex, closer: closerIndex, in: &stack)
        }
        delimiters.removeSubrange(bottom...)
    }

    /// Wraps the nodes between a matched opener and closer; returns the closer to look at
    /// next: this one again while it has characters left, else the one after it.
    private mutating func wrap(opener openerIndex: Int, closer closerIndex: Int, in stack: inout DelimiterStack) -> Int {
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

        // The delimiters between them are spent (each is taken out once, ever).
        var between = stack.next(openerIndex)
        while between != closerIndex {
            let next = stack.next(between)
            stack.remove(between)
            between = next
        }
        if delimiters[openerIndex].count == 0 {
            unlink(openerNode)
            stack.remove(openerIndex)
        }
        guard delimiters[closerIndex].count == 0 else { return closerIndex }
        unlink(closerNode)
        let next = stack.next(closerIndex)
        stack.remove(closerIndex)
        return next
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

/// The delimiters still waiting for a match, from `bottom` up, as a doubly linked list over
/// their indices: taking one out is constant time, and the others keep their indices.
struct DelimiterStack {
    private var previousIndex: [Int]
    private var nextIndex: [Int]
    private let bottom: Int

    init(bottom: Int, count: Int) {
        self.bottom = bottom
        previousIndex = Array((bottom - 1)..<(count - 1))
        nextIndex = Array((bottom + 1)...count)
    }

    /// The delimiter below `index` still in the list (`bottom - 1` when none).
    func previous(_ index: Int) -> Int { previousIndex[index - bottom] }

    /// The delimiter above `index` still in the list (the delimiter count when none).
    func next(_ index: Int) -> Int { nextIndex[index - bottom] }

    /// Takes `index` out of the list.
    mutating func remove(_ index: Int) {
        let (before, after) = (previous(index), next(index))
        if before >= bottom { nextIndex[before - bottom] = after }
        if after < bottom + nextIndex.count { previousIndex[after - bottom] = before }
    }
}
