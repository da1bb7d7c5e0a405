import GRDB
import GRDBSQLite

/// The relevance function of search, registered with FTS5 on every connection as
/// `notetaker_rank(note_fts)`: BM25's term-frequency part, weighted by column (title 10, body
/// 1, tag names 5, facets 0); higher is better.
///
/// FTS5's own `bm25()` also weighs each word by how many notes in the whole store contain it,
/// and counts that by reading every match of the word: for a word found in every note of a
/// million, that alone takes about as long as the whole search budget. This function reads
/// only the row being ranked, so a search costs what its window of candidates costs. Every
/// result contains every searched word anyway, so the missing weighting changes little.
enum SearchRank {
    /// The SQL name of the function.
    static let name = "notetaker_rank"
    /// Weights of the indexed columns, in their order: title, body, tag names, facets.
    static let weights: [Double] = [10, 1, 5, 0]
    /// BM25's saturation and length-normalization constants, at their usual values.
    static let k1 = 1.2
    static let b = 0.75

    /// Makes the function available to queries on this connection.
    static func register(_ db: Database) {
        let api = FTS5.api(db)
        _ = api.pointee.xCreateFunction(UnsafeMutablePointer(mutating: api), name, nil, score, nil)
    }

    private static let score: fts5_extension_function = { api, context, result, _, _ in
        guard let api, let context else { return }
        sqlite3_result_double(result, SearchRank.relevance(api.pointee, context))
    }

    private static func relevance(_ api: Fts5ExtensionApi, _ context: OpaquePointer) -> Double {
        let phrases = Int(api.xPhraseCount(context))
        let columns = min(Int(api.xColumnCount(context)), weights.count)
        var frequencies = [Double](repeating: 0, count: max(phrases, 1) * columns)
        var instances: Int32 = 0
        guard api.xInstCount(context, &instances) == SQLITE_OK else { return 0 }
        for index in 0..<instances {
            var phrase: Int32 = 0
            var column: Int32 = 0
            var offset: Int32 = 0
            if api.xInst(context, index, &phrase, &column, &offset) == SQLITE_OK, Int(column) < columns {
                frequencies[Int(phrase) * columns + Int(column)] += 1
            }
        }
        var rows: Int64 = 0
        _ = api.xRowCount(context, &rows)
        var score = 0.0
        for column in 0..<columns where weights[column] > 0 {
            var total: Int64 = 0
            var length: Int32 = 0
            _ = api.xColumnTotalSize(context, Int32(column), &total)
            _ = api.xColumnSize(context, Int32(column), &length)
            let average = rows > 0 && total > 0 ? Double(total) / Double(rows) : 1
            let norm = k1 * (1 - b + b * Double(length) / average)
            for phrase in 0..<phrases {
                let frequency = frequencies[phrase * columns + column]
                if frequency > 0 { score += weights[column] * frequency * (k1 + 1) / (frequency + norm) }
            }
        }
        return score
    }
}
