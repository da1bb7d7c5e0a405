import Foundation

/// Real Japanese and Chinese prose for the benchmark corpus: the text of Debian's
/// `manpages-ja` and `manpages-zh` (translated manual pages), stripped of their roff markup,
/// one line of prose per entry. A share of the corpus's notes are made of it, so the search
/// benchmark covers text written without spaces.
struct CJKProse {
    enum Failure: Error, CustomStringConvertible {
        case missing
        var description: String {
            "No Japanese or Chinese manual pages under /usr/share/man/ja and /usr/share/man/zh_CN. "
                + "Install them: apt-get install manpages-ja manpages-zh"
        }
    }

    /// The folders the manual pages are read from.
    static let folders = ["/usr/share/man/ja", "/usr/share/man/zh_CN"]

    /// Lines of prose, in the order the pages give them (so neighbours read on).
    let lines: [String]

    init() throws {
        let pages = Self.folders.flatMap { folder in
            (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".gz") }.sorted().map { folder + "/" + $0 }
        }
        guard !pages.isEmpty else { throw Failure.missing }
        let (_, data) = try ProcessTiming.output(URL(fileURLWithPath: "/bin/zcat"), pages, errors: nil)
        let text = String(decoding: data, as: UTF8.self)
        lines = text.split(separator: "\n").compactMap(Self.prose)
        guard lines.count > 1_000 else { throw Failure.missing }
    }

    /// A line as read, without roff markup, when it is prose with at least a few Han or
    /// kana characters; `nil` for requests, comments and lines of options.
    static func prose(_ line: Substring) -> String? {
        guard !line.hasPrefix("."), !line.hasPrefix("'"), !line.hasPrefix("\\\"") else { return nil }
        var text = String(line)
        for escape in ["\\fB", "\\fI", "\\fR", "\\fP", "\\f(CW", "\\,", "\\/", "\\&", "\\(em", "\\(co"] {
            text = text.replacingOccurrences(of: escape, with: "")
        }
        text = text.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
            .trimmingCharacters(in: .whitespaces)
        let ideographic = text.unicodeScalars.filter { (0x3040...0x9FFF).contains($0.value) }.count
        return ideographic >= 6 ? text : nil
    }

    /// A title: the start of a line, up to its first punctuation, at most 20 characters.
    func title(_ generator: inout SeededGenerator) -> String {
        let line = lines[Int(generator.next() % UInt64(lines.count))]
        let head = line.prefix { !"。、，,.:：()（）".contains($0) }
        return String((head.isEmpty ? Substring(line) : head).prefix(20))
    }

    /// A body: a run of 3 to 30 neighbouring lines, in paragraphs.
    func body(_ generator: inout SeededGenerator) -> String {
        let count = 3 + Int(generator.next() % 28)
        let start = Int(generator.next() % UInt64(lines.count - count))
        return lines[start..<start + count].enumerated()
            .map { $0.offset > 0 && $0.offset % 4 == 0 ? "\n" + $0.element : $0.element }
            .joined(separator: "\n")
    }
}
