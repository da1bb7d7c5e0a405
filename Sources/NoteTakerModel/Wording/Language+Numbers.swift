/// How each language counts and writes numbers: CLDR's cardinal plural rules and grouping
/// separators for whole numbers, the same the web app's `Intl` uses.
extension Language {
    /// A plural category of CLDR.
    public enum PluralCategory: String, Sendable {
        /// One thing (in French, also zero).
        case one
        /// A round million or more in Spanish and French ("1 000 000 de notes").
        case many
        /// Every other count.
        case other
    }

    /// The plural form `count` takes.
    public func pluralCategory(of count: Int64) -> PluralCategory {
        let magnitude = count.magnitude
        switch self {
        case .english, .german:
            return magnitude == 1 ? .one : .other
        case .spanish:
            if magnitude == 1 { return .one }
            return magnitude != 0 && magnitude % 1_000_000 == 0 ? .many : .other
        case .french:
            if magnitude <= 1 { return .one }
            return magnitude % 1_000_000 == 0 ? .many : .other
        case .simplifiedChinese:
            return .other
        }
    }

    /// `number` as the language writes it: `12,345` in English and Chinese, `12.345` in German
    /// and Spanish (which leaves four digits ungrouped), `12 345` in French (a narrow space).
    public func write(_ number: Int64) -> String {
        let digits = String(number.magnitude)
        let sign = number < 0 ? "-" : ""
        let separator: String
        switch self {
        case .english, .simplifiedChinese: separator = ","
        case .german: separator = "."
        case .spanish: separator = digits.count > 4 ? "." : ""
        case .french: separator = "\u{202F}"
        }
        guard !separator.isEmpty, digits.count > 3 else { return sign + digits }
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return sign + groups.joined(separator: separator)
    }
}
