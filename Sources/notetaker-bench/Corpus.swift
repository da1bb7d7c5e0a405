import Foundation
import NoteTakerKit

/// A seeded random number generator (SplitMix64), so every run generates the same corpus.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A normally distributed double (Box-Muller).
    mutating func normal(mean: Double, deviation: Double) -> Double {
        let u1 = max(unit(), .leastNonzeroMagnitude)
        return mean + deviation * (-2 * log(u1)).squareRoot() * cos(2 * .pi * unit())
    }
}

/// Realistic note text: words from a real word list (Debian's `wamerican`), drawn with a
/// Zipf distribution (s = 1), so a few words are in nearly every note and most are rare;
/// note lengths vary (log-normal, about 100 words on average).
struct Corpus {
    enum Failure: Error, CustomStringConvertible {
        case noWordList(String)
        var description: String {
            switch self {
            case .noWordList(let path):
                return "No word list at \(path). Install one: apt-get install wamerican (or pass --words PATH)."
            }
        }
    }

    /// The vocabulary in rank order: `words[0]` is the most frequent.
    let words: [String]
    private let cumulative: [Double]

    init(wordList path: String, seed: UInt64) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Failure.noWordList(path) }
        var seen = Set<String>()
        var words = text.split(separator: "\n").map { $0.lowercased() }
            .filter { $0.count >= 2 && $0.allSatisfy(\.isLetter) && seen.insert($0).inserted }
        var generator = SeededGenerator(seed: seed)
        words.shuffle(using: &generator)
        self.words = words
        var total = 0.0
        cumulative = words.indices.map { rank in
            total += 1.0 / Double(rank + 1)
            return total
        }
    }

    /// A word drawn by Zipf's law.
    func word(_ generator: inout SeededGenerator) -> String {
        let target = generator.unit() * cumulative[cumulative.count - 1]
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return words[low]
    }

    /// A title of two to six words.
    func title(_ generator: inout SeededGenerator) -> String {
        let count = 2 + Int(generator.next() % 5)
        return (0..<count).map { _ in word(&generator) }.joined(separator: " ").capitalizingFirst
    }

    /// A body of sentences and paragraphs, about 100 words long on average.
    func body(_ generator: inout SeededGenerator) -> String {
        let length = Int(exp(generator.normal(mean: log(90), deviation: 0.5)).rounded()).clamped(10, 600)
        var text = ""
        var written = 0
        var sentences = 0
        while written < length {
            let sentenceLength = min(length - written, 6 + Int(generator.next() % 12))
            let sentence = (0..<sentenceLength).map { _ in word(&generator) }.joined(separator: " ")
            text += (text.isEmpty ? "" : sentences % 4 == 0 ? "\n\n" : " ") + sentence.capitalizingFirst + "."
            written += sentenceLength
            sentences += 1
        }
        return text
    }
}

extension String {
    var capitalizingFirst: String { prefix(1).uppercased() + dropFirst() }
}

extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}
