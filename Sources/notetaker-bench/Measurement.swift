import Foundation

/// Timing and the figures a benchmark reports.
enum Clock {
    /// Runs `body` and returns how long it took, in milliseconds.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        return milliseconds(since: start)
    }

    /// Milliseconds from `start` until now.
    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        milliseconds(ContinuousClock.now - start)
    }

    /// A duration in milliseconds.
    static func milliseconds(_ elapsed: Duration) -> Double {
        Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// The `fraction` percentile (0.5 for the median) of `samples`, nearest rank.
    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let sorted = samples.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[rank.clamped(0, sorted.count - 1)]
    }

    /// The peak resident memory of this process, in MB.
    static func peakMemoryMB() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}

/// One line of a benchmark report: NoteTaker's figure beside the plain-SQL baseline's.
struct Figure: Encodable {
    var name: String
    var unit: String
    var noteTaker: Double
    var baseline: Double?
    var budget: String
    /// Whether NoteTaker's figure meets the budget (`nil` where there is no budget).
    var meetsBudget: Bool?
    var note: String?

    /// NoteTaker ÷ baseline. For times, below 1 means faster than plain SQL; for rates, above 1.
    var ratio: Double? { baseline.map { $0 == 0 ? .nan : noteTaker / $0 } }

    enum CodingKeys: String, CodingKey { case name, unit, noteTaker, baseline, ratio, budget, meetsBudget, note }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(unit, forKey: .unit)
        try container.encode(noteTaker, forKey: .noteTaker)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(ratio, forKey: .ratio)
        try container.encode(budget, forKey: .budget)
        try container.encode(meetsBudget, forKey: .meetsBudget)
        try container.encode(note, forKey: .note)
    }
}

/// Prints figures as a text table or as JSON.
struct Report: Encodable {
    var suite: String
    var notes: Int
    var machine: String
    var figures: [Figure] = []

    /// The machine the figures come from.
    static func machine() -> String {
        "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + String(format: "%.0f GB", Double(ProcessInfo.processInfo.physicalMemory) / 1e9)
    }

    func printText() {
        print("notetaker-bench \(suite) — \(notes) notes — \(machine)")
        let header = ["measure", "NoteTaker", "plain SQL", "ratio", "budget", ""]
        let rows = figures.map { figure in
            [figure.name,
             Self.format(figure.noteTaker, figure.unit),
             figure.baseline.map { Self.format($0, figure.unit) } ?? "-",
             figure.ratio.map { String(format: "%.2f", $0) } ?? "-",
             figure.budget,
             figure.meetsBudget.map { $0 ? "ok" : "OVER" } ?? ""]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            print(row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  "))
        }
        for figure in figures where figure.note != nil {
            print("  \(figure.name): \(figure.note ?? "")")
        }
    }

    func printJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        print(String(decoding: try encoder.encode(self), as: UTF8.self))
    }

    private static func format(_ value: Double, _ unit: String) -> String {
        switch unit {
        case "ms": return value < 1 ? String(format: "%.3f ms", value) : String(format: "%.1f ms", value)
        case "notes/s": return String(format: "%.0f notes/s", value)
        case "MB": return String(format: "%.0f MB", value)
        case "records/s": return String(format: "%.0f records/s", value)
        case "s": return String(format: "%.1f s", value)
        default: return String(format: "%.2f %@", value, unit)
        }
    }
}
