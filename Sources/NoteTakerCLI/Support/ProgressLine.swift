import Foundation

/// One line of progress on standard error, redrawn in place (only on a terminal).
package final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private var lastDrawn = Date.distantPast

    /// A line with nothing drawn yet.
    package init() {}

    /// Shows `text`; with `throttled`, at most ten times a second.
    package func show(_ text: String, throttled: Bool = false) {
        lock.withLock {
            let now = Date()
            guard !throttled || now.timeIntervalSince(lastDrawn) >= 0.1 else { return }
            lastDrawn = now
            FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        }
    }

    /// A bar for a fraction done: `[#########.........]  45 %`.
    /// A fraction outside 0…1 (or not a number) is drawn as the nearest end.
    package static func bar(_ fraction: Double, width: Int = 30) -> String {
        let fraction = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let filled = Int((fraction * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + String(format: "%3d %%", Int(fraction * 100))
    }

    /// Clears the line.
    package func finish() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
