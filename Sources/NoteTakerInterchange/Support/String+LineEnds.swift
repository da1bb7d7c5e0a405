import Foundation

extension String {
    /// The text with Windows line ends (`\r\n`) made `\n`, as another app's export may
    /// write them (Simplenote writes nothing else). Linear; the text itself when it has none.
    var withUnixLineEnds: String {
        guard utf8.contains(13) else { return self }
        return split(separator: "\r\n", omittingEmptySubsequences: false).joined(separator: "\n")
    }
}
