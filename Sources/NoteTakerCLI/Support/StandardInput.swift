import Foundation

/// Text piped into the command.
package enum StandardInput {
    /// Everything on standard input, as UTF-8 (invalid bytes replaced).
    package static func readAll() -> String {
        String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    }
}
