import Foundation

/// A search the benchmark runs: the text typed into NoteTaker, and the same search written
/// directly as an FTS5 expression for the plain-SQL baseline.
struct BenchQuery: Codable {
    var kind: String
    var text: String
    var fts: String
    /// For text written without spaces, which plain `unicode61` cannot find inside a run:
    /// the baseline looks for each word as a substring of titles and bodies instead, as
    /// Joplin does.
    var substrings: [String]?
    var tag: String?
    var inFolder = false
    var pinned = false

    /// The fixed query set, built from the corpus's word ranks: near-universal, common,
    /// medium and rare words, two words, prefixes, a phrase, and filtered searches.
    static func set(for corpus: Corpus, commonTag: String) -> [BenchQuery] {
        let words = corpus.words
        func word(_ rank: Int) -> String { words[min(rank, words.count) - 1] }
        func single(_ kind: String, _ rank: Int) -> BenchQuery {
            BenchQuery(kind: "\(kind) (rank \(rank))", text: word(rank), fts: "\"\(word(rank))\"")
        }
        let prefix3 = String(word(5).prefix(3))
        let prefix4 = String(word(200).prefix(4))
        return [
            single("near-universal", 1), single("near-universal", 2), single("near-universal", 3),
            single("common", 10), single("common", 30), single("common", 100),
            single("medium", 300), single("medium", 1_000),
            single("rare", 5_000), single("rare", 20_000), single("rare", 50_000),
            BenchQuery(kind: "two words (1 + 500)", text: "\(word(1)) \(word(500))", fts: "\"\(word(1))\" \"\(word(500))\""),
            BenchQuery(kind: "two words (10 + 30)", text: "\(word(10)) \(word(30))", fts: "\"\(word(10))\" \"\(word(30))\""),
            BenchQuery(kind: "prefix \(prefix3)*", text: prefix3 + "*", fts: "\"\(prefix3)\" *"),
            BenchQuery(kind: "prefix \(prefix4)*", text: prefix4 + "*", fts: "\"\(prefix4)\" *"),
            BenchQuery(kind: "phrase (1 2)", text: "\"\(word(1)) \(word(2))\"", fts: "\"\(word(1)) \(word(2))\""),
            BenchQuery(kind: "tag filter + rank 1", text: word(1), fts: "\"\(word(1))\"", tag: commonTag),
            BenchQuery(kind: "folder filter + rank 10", text: word(10), fts: "\"\(word(10))\"", inFolder: true),
            BenchQuery(kind: "pinned filter + rank 2", text: word(2), fts: "\"\(word(2))\"", pinned: true),
        ] + cjk
    }

    /// Japanese and Chinese searches over the manual pages' prose: common and rarer words,
    /// one character, a phrase, and a search mixing scripts.
    static let cjk: [BenchQuery] = [
        ("Japanese word ファイル", "ファイル"), ("Japanese word 表示", "表示"), ("Japanese word 圧縮", "圧縮"),
        ("Chinese word 文件", "文件"), ("Chinese word 服务器", "服务器"),
        ("one character 名", "名"), ("phrase ディレクトリの内容", "\"ディレクトリの内容\""),
        ("mixed 設定 file", "設定 file"),
    ].map { kind, text in
        let words = text.replacingOccurrences(of: "\"", with: "").split(separator: " ")
        return BenchQuery(
            kind: kind, text: text, fts: words.map { "\"\($0)\"" }.joined(separator: " "), substrings: words.map(String.init))
    }
}
