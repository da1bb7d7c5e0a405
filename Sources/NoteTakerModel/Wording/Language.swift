import Foundation

/// A language NoteTaker speaks: the command line's messages and the errors the web app shows.
///
/// The same five languages as the web app's catalogs, by the same tags.
public enum Language: String, CaseIterable, Sendable, Hashable {
    /// English, the language every string is written in first.
    case english = "en"
    /// Spanish.
    case spanish = "es"
    /// French.
    case french = "fr"
    /// German.
    case german = "de"
    /// Chinese as written in mainland China and Singapore.
    case simplifiedChinese = "zh-Hans"

    /// The language a tag names, as a web browser (`de-AT`, `zh-Hans-CN`) or a POSIX locale
    /// (`fr_CA.UTF-8`, `de_DE@euro`) writes it; `nil` for one NoteTaker does not speak, or for
    /// Chinese written in traditional characters (`zh-TW`, `zh_HK`, `zh-Hant`).
    public init?(tag: String) {
        let bare = tag.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        let parts = (bare.split(separator: "@", maxSplits: 1).first.map(String.init) ?? "")
            .lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let primary = parts.first else { return nil }
        if primary == "zh" {
            let traditional: Set<Substring> = ["hant", "tw", "hk", "mo"]
            guard !parts.dropFirst().contains(where: traditional.contains) else { return nil }
            self = .simplifiedChinese
            return
        }
        guard let language = Language(rawValue: String(primary)) else { return nil }
        self = language
    }

    /// The language of a command-line process, as gettext chooses it: the locale is the first
    /// of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set; unless it is `C` or `POSIX`, the
    /// languages `LANGUAGE` lists (`de:fr`) come first. English when none is spoken here.
    public static func of(environment: [String: String]) -> Language {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale, locale != "C", locale != "POSIX", !locale.hasPrefix("C.") else { return .english }
        let listed = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
        return (listed + [locale]).lazy.compactMap(Language.init(tag:)).first ?? .english
    }

    /// The language an HTTP request asks for in its `Accept-Language` header (`fr-CH, fr;q=0.9,
    /// en;q=0.8`): the most wanted one NoteTaker speaks, else English.
    public static func of(acceptLanguage header: String?) -> Language {
        guard let header else { return .english }
        let ranked = header.split(separator: ",").enumerated().compactMap { index, item -> (Double, Int, Language)? in
            let fields = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = fields.first, let language = Language(tag: tag) else { return nil }
            let quality = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0 ? (quality, index, language) : nil
        }
        return ranked.min { ($0.0, -$0.1) > ($1.0, -$1.1) }?.2 ?? .english
    }
}

extension Language {
    /// The `userInfo` key under which an encoder carries the language to word values in.
    public static let codingKey = CodingUserInfoKey(rawValue: "NoteTaker.language")!

    /// The language `encoder` words values in: the one its `userInfo` names, else English.
    public static func of(_ encoder: any Encoder) -> Language {
        encoder.userInfo[codingKey] as? Language ?? .english
    }
}
