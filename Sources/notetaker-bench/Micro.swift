import Foundation
import NoteTakerKit

enum Micro {
    static func run(_ path: String, _ word: String) throws {
        let store = try NoteStore.open(at: URL(fileURLWithPath: path))
        var samples: [Double] = []
        for _ in 0..<200 {
            samples.append(try Clock.milliseconds { _ = try store.search(SearchQuery(word)) })
        }
        print(word, "p50", Clock.percentile(samples, 0.5), "min", samples.min()!)
    }
}
