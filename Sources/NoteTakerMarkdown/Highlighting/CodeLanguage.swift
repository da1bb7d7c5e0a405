/// The languages a fenced code block is highlighted in, named by its info string's first word
/// (` ```swift `), and what the highlighter needs to know of each: its comments, strings,
/// keywords and literal words.
///
/// A small table for the languages notes quote most, not a grammar of each: enough to tell
/// comments, strings, numbers and keywords apart, which is what a reader's eye looks for.
public struct CodeLanguage: Sendable, Equatable {
    /// The language's name, as the page's `language-` class carries it.
    public let name: String
    let lineComments: [[UInt8]]
    let blockComments: [(open: [UInt8], close: [UInt8])]
    /// Quote characters that open a string ending at the same character on the same line, or,
    /// for those in `multilineQuotes`, wherever it closes.
    let quotes: [UInt8]
    let multilineQuotes: [UInt8]
    /// Strings opened by three quotes (Python's and Swift's), ending at three.
    let tripleQuotes: Bool
    let keywords: Set<String>
    let literals: Set<String>
    /// Whether keywords match in any case (SQL).
    let caseInsensitive: Bool
    /// Markup: `<tag attribute="value">` read as tags, attributes and strings.
    let isMarkup: Bool
    /// What follows a key (`:` in JSON and YAML, `=` in TOML), so that keys read as keys.
    let keySeparator: UInt8?

    public static func == (lhs: CodeLanguage, rhs: CodeLanguage) -> Bool { lhs.name == rhs.name }

    /// The language an info string names (`swift`, `js`, `C++`…), or `nil` when it is not one
    /// this highlighter knows.
    public init?(info: String) {
        let word = info.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "{" || $0 == "," }).first.map { $0.lowercased() } ?? ""
        guard let language = Self.byName[word] else { return nil }
        self = language
    }

    private init(
        _ name: String, line: [String] = [], block: [(String, String)] = [], quotes: String = "\"'", multiline: String = "",
        triple: Bool = false, keywords: String, literals: String = "", caseInsensitive: Bool = false, markup: Bool = false,
        keys: Character? = nil
    ) {
        self.name = name
        lineComments = line.map { Array($0.utf8) }
        blockComments = block.map { (Array($0.0.utf8), Array($0.1.utf8)) }
        self.quotes = Array(quotes.utf8)
        multilineQuotes = Array(multiline.utf8)
        tripleQuotes = triple
        self.keywords = Set(keywords.split(separator: " ").map(String.init))
        self.literals = Set(literals.split(separator: " ").map(String.init))
        self.caseInsensitive = caseInsensitive
        isMarkup = markup
        keySeparator = keys?.asciiValue
    }

    /// Every language, by its name and by the other names people write in fences.
    static let byName: [String: CodeLanguage] = {
        var names: [String: CodeLanguage] = [:]
        for (language, aliases) in all {
            names[language.name] = language
            for alias in aliases { names[alias] = language }
        }
        return names
    }()

    /// The names of every language known, as a page's `language-` class may carry them.
    public static var names: Set<String> { Set(all.map(\.language.name)) }

    private static let cLike = "if else for while do switch case default break continue return goto sizeof typedef struct union enum static const extern volatile register inline void char short int long float double signed unsigned auto"

    private static let all: [(language: CodeLanguage, aliases: [String])] = [
        (CodeLanguage("swift", line: ["//"], block: [("/*", "*/")], quotes: "\"", triple: true, keywords: "actor any as associatedtype async await break case catch class continue default defer deinit do else enum extension fallthrough fileprivate final for func guard if import in init inout internal is let mutating nonisolated open operator override package private protocol public repeat rethrows return self Self some static struct subscript super switch throw throws try typealias var weak where while", literals: "true false nil"), []),
        (CodeLanguage("javascript", line: ["//"], block: [("/*", "*/")], quotes: "\"'`", multiline: "`", keywords: "async await break case catch class const continue debugger default delete do else export extends finally for from function if import in instanceof let new of return static super switch this throw try typeof var void while with yield", literals: "true false null undefined NaN Infinity"), ["js", "jsx", "mjs", "node"]),
        (CodeLanguage("typescript", line: ["//"], block: [("/*", "*/")], quotes: "\"'`", multiline: "`", keywords: "abstract as async await break case catch class const continue declare default delete do else enum export extends finally for from function if implements import in instanceof interface keyof let namespace new of private protected public readonly return static super switch this throw try type typeof var void while yield", literals: "true false null undefined"), ["ts", "tsx"]),
        (CodeLanguage("python", line: ["#"], quotes: "\"'", triple: true, keywords: "and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield match case self", literals: "True False None"), ["py", "python3"]),
        (CodeLanguage("json", quotes: "\"", keywords: "", literals: "true false null", keys: ":"), ["jsonc", "json5"]),
        (CodeLanguage("shell", line: ["#"], quotes: "\"'", multiline: "\"'", keywords: "if then else elif fi for in do done while until case esac function return export local readonly set unset shift exit echo cd source alias sudo", literals: "true false"), ["sh", "bash", "zsh", "console", "shell-session", "fish"]),
        (CodeLanguage("c", line: ["//"], block: [("/*", "*/")], keywords: cLike + " #include #define #ifdef #ifndef #endif #if #else", literals: "NULL true false"), ["h", "objc", "objective-c"]),
        (CodeLanguage("cpp", line: ["//"], block: [("/*", "*/")], keywords: cLike + " class namespace template typename public private protected virtual override new delete this using try catch throw constexpr noexcept auto nullptr_t bool #include #define #ifdef #ifndef #endif #if", literals: "true false nullptr NULL"), ["c++", "cc", "cxx", "hpp"]),
        (CodeLanguage("csharp", line: ["//"], block: [("/*", "*/")], keywords: "abstract as async await base bool break case catch class const continue default delegate do else enum event explicit extern finally for foreach if implicit in interface internal is lock namespace new operator out override params private protected public readonly ref return sealed static string struct switch this throw try typeof using var virtual void while", literals: "true false null"), ["cs", "c#"]),
        (CodeLanguage("java", line: ["//"], block: [("/*", "*/")], keywords: "abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for if implements import instanceof int interface long native new package private protected public record return short static super switch synchronized this throw throws try var void volatile while", literals: "true false null"), []),
        (CodeLanguage("kotlin", line: ["//"], block: [("/*", "*/")], quotes: "\"'", triple: true, keywords: "as break class continue data do else enum for fun if import in interface is object override package private public return sealed super this throw try typealias val var when while", literals: "true false null"), ["kt", "kts"]),
        (CodeLanguage("go", line: ["//"], block: [("/*", "*/")], quotes: "\"'`", multiline: "`", keywords: "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var", literals: "true false nil iota"), ["golang"]),
        (CodeLanguage("rust", line: ["//"], block: [("/*", "*/")], quotes: "\"", multiline: "\"", keywords: "as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while", literals: "true false None Some Ok Err"), ["rs"]),
        (CodeLanguage("ruby", line: ["#"], quotes: "\"'", keywords: "alias and begin break case class def defined? do else elsif end ensure for if in module next not or redo rescue retry return self super then undef unless until when while yield require", literals: "true false nil"), ["rb"]),
        (CodeLanguage("php", line: ["//", "#"], block: [("/*", "*/")], keywords: "abstract and as break case catch class const continue declare default do echo else elseif extends final finally fn for foreach function global if implements include interface namespace new or private protected public require return static switch throw trait try use var while", literals: "true false null TRUE FALSE NULL"), []),
        (CodeLanguage("sql", line: ["--"], block: [("/*", "*/")], quotes: "'\"", keywords: "select from where and or not insert into values update set delete create table index view drop alter add column primary key foreign references join left right inner outer on group by order having limit offset as distinct union all case when then else end begin commit rollback transaction with recursive exists in is like between returning conflict do nothing", literals: "null true false", caseInsensitive: true), ["sqlite", "postgresql", "psql", "mysql"]),
        (CodeLanguage("css", block: [("/*", "*/")], keywords: "@media @import @font-face @keyframes @supports @layer !important", literals: ""), ["scss", "less"]),
        (CodeLanguage("html", block: [("<!--", "-->")], keywords: "", markup: true), ["xml", "svg", "xhtml", "plist", "enex", "vue"]),
        (CodeLanguage("yaml", line: ["#"], keywords: "", literals: "true false null yes no on off ~", keys: ":"), ["yml"]),
        (CodeLanguage("toml", line: ["#"], keywords: "", literals: "true false", keys: "="), ["ini", "conf"]),
    ]
}
