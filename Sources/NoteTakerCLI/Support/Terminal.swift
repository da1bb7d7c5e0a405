import Foundation
import NoteTakerKit

/// Where output goes, and whether a person is watching it.
package enum Terminal {
    /// Whether standard output is a terminal (not a pipe or a file).
    package static var isInteractive: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Writes `message` to standard error, prefixed with `error: ` in the reader's language.
    package static func printError(_ message: String) {
        FileHandle.standardError.write(Data((Words.text("errorPrefix") + message + "\n").utf8))
    }

    /// Writes a line to standard error (progress and notices that scripts should not read).
    package static func printNotice(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }

    /// A search snippet with its matches in bold on a terminal, between `[` and `]` otherwise.
    static func highlighted(_ hit: SearchHit) -> String {
        isInteractive ? hit.snippet(open: "\u{1B}[1m", close: "\u{1B}[0m") : hit.snippet(open: "[", close: "]")
    }
}
