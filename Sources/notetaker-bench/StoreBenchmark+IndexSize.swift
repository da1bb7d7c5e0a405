import Foundation
import GRDB

extension StoreBenchmark {
    /// The search index's size beside the index the same notes had before text written
    /// without spaces was split into pairs of characters (plain `unicode61`, same columns and
    /// prefix indexes), built for the comparison in the store's file and dropped again.
    func measureIndexSize(_ storeURL: URL) throws -> Figure {
        let queue = try DatabaseQueue(path: storeURL.path)
        let (ours, plain) = try queue.write { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE bench_plain_fts USING fts5(
                    title, body, tagNames, facets, content = 'note', content_rowid = 'searchSeq',
                    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
                INSERT INTO bench_plain_fts(bench_plain_fts) VALUES ('rebuild');
                """)
            let ours = try Double.fetchOne(db, sql: "SELECT SUM(length(block)) FROM note_fts_data") ?? 0
            let plain = try Double.fetchOne(db, sql: "SELECT SUM(length(block)) FROM bench_plain_fts_data") ?? 0
            try db.execute(sql: "DROP TABLE bench_plain_fts")
            return (ours / 1_048_576, plain / 1_048_576)
        }
        return Figure(
            name: "search index size", unit: "MB", noteTaker: ours, baseline: plain,
            budget: "<= 1.5x plain unicode61", meetsBudget: ours <= 1.5 * plain,
            note: "baseline: the same index with plain unicode61 (no pairs of characters), on the same notes, "
                + "\(Int(Self.cjkShare * 100)) % of them Japanese or Chinese")
    }
}
