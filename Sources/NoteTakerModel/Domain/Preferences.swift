/// How this store's notes are shown, chosen in Settings: the same in the web app's preview,
/// its print, and the PDF export, whichever program writes it.
public struct Preferences: Sendable, Equatable, Codable {
    /// Whether a single line break inside a paragraph shows as a line break, as Obsidian,
    /// Joplin and Apple Notes show it; otherwise as a space, as CommonMark reads it. On
    /// unless turned off.
    public var lineBreaks: Bool

    /// Preferences; by default line breaks show.
    public init(lineBreaks: Bool = true) {
        self.lineBreaks = lineBreaks
    }

    private enum CodingKeys: String, CodingKey {
        case lineBreaks
    }

    /// Reads stored preferences; a preference a store does not have yet takes its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lineBreaks = try container.decodeIfPresent(Bool.self, forKey: .lineBreaks) ?? true
    }
}
