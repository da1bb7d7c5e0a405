import Foundation

/// The words of one part of NoteTaker in every ``Language``: a JSON file per language
/// (`<folder>/<tag>.json`, the web app's format) mapping a key to a string with `{name}`
/// placeholders, or to its plural forms (`one`, `many`, `other`) for a string that counts.
///
/// A key a language lacks is said in English; a key English lacks is shown as it is.
public struct Catalog: Sendable {
    private enum Entry: Sendable {
        case text(String)
        case plural([String: String])
    }

    private let entries: [Language: [String: Entry]]

    /// The catalog in `files` (a module's embedded files, by path) under `folder`, for
    /// `languages` (a process that speaks one reads only it and English). A file that is
    /// missing or not a catalog leaves its language empty (then spoken in English).
    public init(files: [String: Data], folder: String, languages: [Language] = Language.allCases) {
        var entries: [Language: [String: Entry]] = [:]
        for language in Set(languages) {
            guard let data = files["\(folder)/\(language.rawValue).json"],
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            entries[language] = object.compactMapValues { value -> Entry? in
                if let text = value as? String { return .text(text) }
                if let forms = value as? [String: String], forms["other"] != nil { return .plural(forms) }
                return nil
            }
        }
        self.entries = entries
    }

    /// Whether `language` has a string for `key`.
    public func has(_ key: String, in language: Language) -> Bool {
        entries[language]?[key] != nil
    }

    /// The keys `language` has.
    public func keys(in language: Language) -> Set<String> {
        Set(entries[language]?.keys ?? [:].keys)
    }

    /// `wording` in `language`: its placeholders filled, the plural form its `count` takes.
    public func text(_ wording: Wording, in language: Language) -> String {
        let spoken = entries[language]?[wording.key] != nil ? language : .english
        guard let entry = entries[spoken]?[wording.key] else { return wording.key }
        switch entry {
        case .text(let text):
            return fill(text, wording.values, spoken)
        case .plural(let forms):
            guard case .number(let count) = wording.values["count"] else { return fill(forms["other"] ?? "", wording.values, spoken) }
            let form = forms[spoken.pluralCategory(of: count).rawValue] ?? forms["other"] ?? ""
            return fill(form, wording.values, spoken)
        }
    }

    /// `template` with each `{name}` replaced by its value; a name without one stays as it is.
    /// One pass over the template, so a value that holds braces is never read as a placeholder.
    private func fill(_ template: String, _ values: [String: Wording.Value], _ language: Language) -> String {
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}"),
                  let value = values[String(rest[afterOpen..<close])] else {
                result.append("{")
                rest = rest[afterOpen...]
                continue
            }
            switch value {
            case .text(let text): result += text
            case .number(let number): result += language.write(number)
            case .wording(let inner): result += text(inner, in: language)
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}

extension Catalog {
    /// The words of NoteTaker's errors (the store's, sync's, import's and export's), and of
    /// the reasons an import gives for a note it skipped or changed.
    public static let errors = Catalog(files: EmbeddedFiles.files, folder: "Strings")
}
