import GRDB
import GRDBSQLite

/// The search index's tokenizer, registered on every connection as `notetaker`.
///
/// Words are found by SQLite's `unicode61` tokenizer (case and accents folded), told to keep
/// combining marks inside words so that Thai, Devanagari and other scripts written with them
/// are not cut apart at every vowel sign. Text in a script written without spaces between
/// words (``SpacelessScripts``) comes out of `unicode61` as one token per run, so a
/// note containing `東京タワーに行きました` would be found only by that whole run. Such runs are
/// indexed here as overlapping pairs of characters, the approach of Lucene's CJK analyzer:
/// `東京` `京タ` `タワ` `ワー` …, and each character alone at the position of the pair it
/// starts (the last one at the position of the last pair). Then
/// - a word of two or more characters is the phrase of its pairs, found wherever it occurs;
/// - a single character is a word of its own (`京` is found in `東京` and in `京都`), looked up
///   as directly as any word: as a prefix of the pairs it took 26 ms at 1,000,000 notes;
/// - phrases keep their meaning, since pairs follow each other position by position.
///
/// Queries are split into pairs only: the characters alone are what a one-character query
/// is. Tokens with no such script pass through untouched, without decoding.
final class SearchTokenizer: FTS5CustomTokenizer {
    static let name = "notetaker"

    /// How a table names this tokenizer in its `tokenize` option.
    static let descriptor = FTS5TokenizerDescriptor(components: [name])

    private let words: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        words = try db.makeTokenizer(.unicode61(diacritics: .remove, categories: "L* N* Co M*"))
    }

    func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?, nText: CInt, tokenCallback: @escaping FTS5TokenCallback
    ) -> CInt {
        var sink = Sink(context: context, callback: tokenCallback, isQuery: tokenization.contains(.query))
        return withUnsafeMutablePointer(to: &sink) { sink in
            words.tokenize(
                context: UnsafeMutableRawPointer(sink), tokenization: tokenization, pText: pText, nText: nText,
                tokenCallback: Self.split)
        }
    }

    /// Where tokens go: FTS5's own callback and context.
    private struct Sink {
        let context: UnsafeMutableRawPointer?
        let callback: FTS5TokenCallback
        let isQuery: Bool

        func emit(_ token: UnsafePointer<CChar>, _ range: Range<Int>, flags: CInt, _ start: CInt, _ end: CInt) -> CInt {
            callback(context, flags, token + range.lowerBound, CInt(range.count), start, end)
        }
    }

    /// Receives each word from `unicode61` and passes it on, split into pairs where it is
    /// written in a script without spaces.
    private static let split: FTS5TokenCallback = { context, flags, token, count, start, end in
        guard let context, let token else { return SQLITE_OK }
        let sink = context.assumingMemoryBound(to: Sink.self).pointee
        let bytes = UnsafeRawPointer(token).assumingMemoryBound(to: UInt8.self)
        // Every spaceless script is encoded in three or four bytes: a word without such
        // a lead byte is passed on as it is.
        guard (0..<Int(count)).contains(where: { bytes[$0] >= 0xE0 }) else {
            return sink.callback(sink.context, flags, token, count, start, end)
        }
        let units = characters(bytes, count: Int(count))
        guard units.contains(where: \.isSpaceless) else {
            return sink.callback(sink.context, flags, token, count, start, end)
        }
        var index = 0
        while index < units.count {
            var last = index
            while last + 1 < units.count, units[last + 1].isSpaceless == units[index].isSpaceless { last += 1 }
            let code: CInt
            if !units[index].isSpaceless || last == index {
                code = sink.emit(token, units[index].bytes.lowerBound..<units[last].bytes.upperBound, flags: flags, start, end)
            } else {
                code = pairs(units[index...last], token, sink, start, end)
            }
            guard code == SQLITE_OK else { return code }
            index = last + 1
        }
        return SQLITE_OK
    }

    /// Emits the overlapping pairs of a run of two or more spaceless characters and, for a
    /// document, each character alone at the position of the pair it starts (the last one
    /// at the position of the last pair).
    private static func pairs(
        _ run: ArraySlice<Character>, _ token: UnsafePointer<CChar>, _ sink: Sink, _ start: CInt, _ end: CInt
    ) -> CInt {
        for index in run.indices.dropLast() {
            var code = sink.emit(token, run[index].bytes.lowerBound..<run[index + 1].bytes.upperBound, flags: 0, start, end)
            if code == SQLITE_OK, !sink.isQuery { code = sink.emit(token, run[index].bytes, flags: FTS5_TOKEN_COLOCATED, start, end) }
            guard code == SQLITE_OK else { return code }
        }
        guard !sink.isQuery, let last = run.last else { return SQLITE_OK }
        return sink.emit(token, last.bytes, flags: FTS5_TOKEN_COLOCATED, start, end)
    }

    /// A character of a word: a scalar with the combining marks that follow it, as a
    /// range of the word's bytes.
    private struct Character {
        var bytes: Range<Int>
        var isSpaceless: Bool
    }

    /// The characters of a word, given as the valid UTF-8 `unicode61` produces.
    private static func characters(_ bytes: UnsafePointer<UInt8>, count: Int) -> [Character] {
        var characters: [Character] = []
        var offset = 0
        while offset < count {
            let lead = bytes[offset]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            let end = min(offset + length, count)
            var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
            for next in (offset + 1)..<max(end, offset + 1) { value = value << 6 | UInt32(bytes[next] & 0x3F) }
            if let scalar = Unicode.Scalar(value), SpacelessScripts.isMark(scalar), !characters.isEmpty {
                characters[characters.count - 1].bytes = characters[characters.count - 1].bytes.lowerBound..<end
            } else {
                characters.append(Character(bytes: offset..<end, isSpaceless: SpacelessScripts.contains(value)))
            }
            offset = end
        }
        return characters
    }
}
