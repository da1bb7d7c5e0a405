/// Reads the sync API's JSON by hand, strictly (RFC 8259: no trailing commas, no comments,
/// valid UTF-8, no control characters in strings), a value at a time, without building a
/// tree first: a page of a thousand records is read once, straight into its records.
///
/// ```swift
/// var reader = WireReader(bytes)
/// try reader.object { reader, key in
///     switch key {
///     case "token": token = try reader.string()
///     default: try reader.skip()
///     }
/// }
/// try reader.end()
/// ```
public struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0

    /// How deeply arrays and objects may nest (a record's fields nest two levels).
    public static let maximumDepth = 64

    /// Reads `bytes`, UTF-8 JSON.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads one value with `value` from a whole document, refusing anything after it.
    public static func read<T>(_ bytes: [UInt8], _ value: (inout WireReader) throws(WireJSONError) -> T) throws(WireJSONError) -> T {
        var reader = WireReader(bytes)
        let result = try value(&reader)
        try reader.end()
        return result
    }

    /// Checks that nothing but white space follows.
    public mutating func end() throws(WireJSONError) {
        skipSpace()
        guard offset == bytes.count else { throw failure("unexpected text after the end") }
    }

    // MARK: Values

    /// Reads `null`; `false` when the next value is something else (and nothing is read).
    public mutating func null() throws(WireJSONError) -> Bool {
        guard peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// Reads `true` or `false`.
    public mutating func bool() throws(WireJSONError) -> Bool {
        switch peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw failure("expected true or false")
        }
    }

    /// Reads a number; one too large for a `Double` is refused.
    public mutating func number() throws(WireJSONError) -> Double {
        skipSpace()
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        if current == UInt8(ascii: "0") {
            offset += 1
        } else {
            guard try digits() > 0 else { throw failure("expected a number", at: start) }
        }
        if current == UInt8(ascii: ".") {
            offset += 1
            guard try digits() > 0 else { throw failure("expected digits after the decimal point") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            guard try digits() > 0 else { throw failure("expected digits in the exponent") }
        }
        guard let value = Double(String(decoding: bytes[start..<offset], as: UTF8.self)), value.isFinite else {
            throw failure("a number too large", at: start)
        }
        return value
    }

    /// Reads a string.
    public mutating func string() throws(WireJSONError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string") }
        offset += 1
        let start = offset
        // The common case: no escapes, so the bytes are the string.
        var ascii = skipPlainBytes()  // whether the raw bytes are all ASCII
        guard offset < bytes.count else { throw failure("a string without its closing quote", at: start - 1) }
        if bytes[offset] == UInt8(ascii: "\"") {
            offset += 1
            return try bytes.withUnsafeBufferPointer { bytes throws(WireJSONError) in
                try text(UnsafeBufferPointer(rebasing: bytes[start..<(offset - 1)]), ascii: ascii, at: start)
            }
        }
        // With escapes (a note's line breaks): the runs between them are copied whole.
        var unescaped = Array(bytes[start..<offset])
        while true {
            guard offset < bytes.count else { throw failure("a string without its closing quote", at: start - 1) }
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try unescaped.withUnsafeBufferPointer { unescaped throws(WireJSONError) in try text(unescaped, ascii: ascii, at: start) }
            case UInt8(ascii: "\\"):
                try unescape(into: &unescaped)
            default:
                throw failure("a control character inside a string", at: offset - 1)
            }
            let run = offset
            ascii = skipPlainBytes() && ascii
            unescaped.append(contentsOf: bytes[run..<offset])
        }
    }

    /// Moves past the bytes a string holds as they are: up to its closing quote, an escape
    /// or a control character (which JSON does not allow unescaped). Returns whether they
    /// were all ASCII.
    private mutating func skipPlainBytes() -> Bool {
        var seen: UInt8 = 0
        offset = bytes.withUnsafeBufferPointer { bytes in
            var position = offset
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                seen |= byte
                position += 1
            }
            return position
        }
        return seen < 0x80
    }

    /// Reads an array, each element read by `element`.
    public mutating func array(_ element: (inout WireReader) throws(WireJSONError) -> Void) throws(WireJSONError) {
        try open(UInt8(ascii: "["), "expected a list")
        defer { depth -= 1 }
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return
        }
        while true {
            try element(&self)
            if try closes(UInt8(ascii: "]")) { return }
        }
    }

    /// Reads an object, each member's value read by `member`, given the member's key.
    public mutating func object(_ member: (inout WireReader, String) throws(WireJSONError) -> Void) throws(WireJSONError) {
        try open(UInt8(ascii: "{"), "expected an object")
        defer { depth -= 1 }
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return
        }
        while true {
            let key = try string()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
            offset += 1
            try member(&self, key)
            if try closes(UInt8(ascii: "}")) { return }
        }
    }

    /// Reads past one value of any kind.
    public mutating func skip() throws(WireJSONError) {
        switch peek() {
        case UInt8(ascii: "{"): try object { reader, _ throws(WireJSONError) in try reader.skip() }
        case UInt8(ascii: "["): try array { reader throws(WireJSONError) in try reader.skip() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"): _ = try null()
        default: _ = try number()
        }
    }

    /// Reads past one value of any kind and returns its JSON text as it was written.
    public mutating func rawValue() throws(WireJSONError) -> String {
        try capturing { reader throws(WireJSONError) in try reader.skip() }.1
    }

    /// Reads one value with `read`, and returns it with its JSON text as it was written.
    public mutating func capturing<T>(_ read: (inout WireReader) throws(WireJSONError) -> T) throws(WireJSONError) -> (T, String) {
        skipSpace()
        let start = offset
        let value = try read(&self)
        return (value, String(decoding: bytes[start..<offset], as: UTF8.self))
    }

    /// What the next value is, without reading it.
    public mutating func peek() -> UInt8? {
        skipSpace()
        return current
    }

    // MARK: Parts

    private var current: UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws(WireJSONError) {
        let length = word.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: length)
        guard offset + length <= bytes.count, bytes[offset..<(offset + length)].elementsEqual(expected) else {
            throw failure("expected \(word)")
        }
        offset += length
    }

    private mutating func digits() throws(WireJSONError) -> Int {
        let start = offset
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
        return offset - start
    }

    private mutating func open(_ bracket: UInt8, _ expected: String) throws(WireJSONError) {
        guard peek() == bracket else { throw failure(expected) }
        guard depth < Self.maximumDepth else { throw failure("lists or objects nested too deeply") }
        depth += 1
        offset += 1
    }

    /// After an element: `true` at the closing bracket, `false` after a comma.
    private mutating func closes(_ bracket: UInt8) throws(WireJSONError) -> Bool {
        switch peek() {
        case bracket?: offset += 1; return true
        case UInt8(ascii: ",")?: offset += 1; return false
        default: throw failure("expected ',' or '\(Character(Unicode.Scalar(bracket)))'")
        }
    }

    /// A string's bytes as text. When the string's raw bytes were all ASCII they need no
    /// checking (an escape's bytes are whole characters); otherwise they must be valid UTF-8.
    private func text(_ utf8: UnsafeBufferPointer<UInt8>, ascii: Bool, at start: Int) throws(WireJSONError) -> String {
        if ascii { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("a string that is not valid UTF-8", at: start) }
        return text
    }

    private mutating func unescape(into unescaped: inout [UInt8]) throws(WireJSONError) {
        guard let byte = current else { throw failure("a string without its closing quote") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(byte)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate: its low half must follow as another \u escape.
                guard try literalIfPresent("\\u") else { throw failure("half of a surrogate pair") }
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("half of a surrogate pair") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let value = Unicode.Scalar(scalar) else { throw failure("half of a surrogate pair") }
            unescaped.append(contentsOf: String(value).utf8)
        default:
            throw failure("an unknown escape in a string", at: offset - 2)
        }
    }

    private mutating func literalIfPresent(_ text: StaticString) throws(WireJSONError) -> Bool {
        let length = text.utf8CodeUnitCount
        guard offset + length <= bytes.count,
              bytes[offset..<(offset + length)].elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: length))
        else { return false }
        offset += length
        return true
    }

    private mutating func hexQuad() throws(WireJSONError) -> UInt32 {
        guard offset + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), radix: 16),
              bytes[offset..<(offset + 4)].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw failure("a \\u escape without four hex digits") }
        offset += 4
        return value
    }

    /// An error at the reader's place: for a value that is well-formed JSON but not what
    /// was expected there.
    public func refusal(_ problem: String) -> WireJSONError {
        failure(problem)
    }

    private func failure(_ problem: String, at position: Int? = nil) -> WireJSONError {
        WireJSONError(problem: problem, offset: position ?? offset)
    }
}

/// JSON that ``WireReader`` could not read, and where.
public struct WireJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong.
    public var problem: String
    /// The byte offset where it was found.
    public var offset: Int

    /// A sentence naming the problem and its place.
    public var description: String {
        "The JSON is malformed: \(problem) at byte \(offset)."
    }
}
