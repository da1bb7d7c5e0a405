import NoteTakerMarkdown
import Testing

/// Fenced code in a language the highlighter knows: comments, strings, numbers, keywords and
/// literal words in spans, the rest escaped, any text in linear time.
@Suite("Code highlighting")
struct CodeHighlighterTests {
    func highlighted(_ code: String, _ info: String) throws -> String {
        CodeHighlighter.html(code, language: try #require(CodeLanguage(info: info), "\(info) is not known"))
            .replacingOccurrences(of: "<span class=\"hl-", with: "{")
            .replacingOccurrences(of: "</span>", with: "}")
    }

    @Test func swiftAndCLikeLanguages() throws {
        #expect(try highlighted("let x = 42 // answer\nreturn \"a \\\"b\\\"\" /* c */ nil", "swift")
            == "{keyword\">let} x = {number\">42} {comment\">// answer}\n{keyword\">return} {string\">&quot;a \\&quot;b\\&quot;&quot;} {comment\">/* c */} {literal\">nil}")
        #expect(try highlighted("#include <stdio.h>\nint main(void) { return 0x1F; }", "c")
            == "{keyword\">#include} &lt;stdio.h&gt;\n{keyword\">int} main({keyword\">void}) { {keyword\">return} {number\">0x1F}; }")
        #expect(try highlighted("const s = `multi\nline`; // ok", "js") == "{keyword\">const} s = {string\">`multi\nline`}; {comment\">// ok}")
    }

    @Test func pythonShellSQLAndData() throws {
        #expect(try highlighted("def f():\n    \"\"\"Doc\n    string\"\"\"\n    return None  # done", "py")
            == "{keyword\">def} f():\n    {string\">&quot;&quot;&quot;Doc\n    string&quot;&quot;&quot;}\n    {keyword\">return} {literal\">None}  {comment\">#done}".replacingOccurrences(of: "#done", with: "# done"))
        #expect(try highlighted("if [ -f 'a\\' ]; then echo \"$HOME\"; fi", "bash")
            == "{keyword\">if} [ -f {string\">'a\\'} ]; {keyword\">then} {keyword\">echo} {string\">&quot;$HOME&quot;}; {keyword\">fi}")
        #expect(try highlighted("SELECT id FROM note -- all\nwhere x = 'it''s'", "sql")
            == "{keyword\">SELECT} id {keyword\">FROM} note {comment\">-- all}\n{keyword\">where} x = {string\">'it'}{string\">'s'}")
        #expect(try highlighted("{\"name\": \"Ada\", \"n\": 1.5, \"ok\": true}", "json")
            == "{{property\">&quot;name&quot;}: {string\">&quot;Ada&quot;}, {property\">&quot;n&quot;}: {number\">1.5}, {property\">&quot;ok&quot;}: {literal\">true}}")
        #expect(try highlighted("title: Plan # note\ndone: false", "yml")
            == "{property\">title}: Plan {comment\"># note}\n{property\">done}: {literal\">false}")
        #expect(try highlighted("<a href=\"x\">b</a><!-- c -->", "html")
            == "{tag\">&lt;a} {attribute\">href}={string\">&quot;x&quot;}{tag\">&gt;}b{tag\">&lt;/a}{tag\">&gt;}{comment\">&lt;!-- c --&gt;}")
    }

    @Test func namesAndAliases() {
        #expect(CodeLanguage(info: "JS")?.name == "javascript")
        #expect(CodeLanguage(info: "c++")?.name == "cpp")
        #expect(CodeLanguage(info: "python title=\"x.py\"")?.name == "python")
        #expect(CodeLanguage(info: "brainfuck") == nil)
        #expect(CodeLanguage(info: "") == nil)
    }

    @Test func theRendererHighlightsOnlyWhenAskedAndOnlyKnownLanguages() {
        let markdown = "```js\nlet a = 1\n```\n\n```unknown\nlet a = 1\n```"
        let plain = MarkdownDocument(parsing: markdown).html()
        #expect(plain == "<pre><code class=\"language-js\">let a = 1\n</code></pre>\n<pre><code class=\"language-unknown\">let a = 1\n</code></pre>\n")
        let highlighted = MarkdownDocument(parsing: markdown).html(options: MarkdownHTMLOptions(highlightsCode: true))
        #expect(highlighted == "<pre><code class=\"language-javascript\"><span class=\"hl-keyword\">let</span> a = <span class=\"hl-number\">1</span>\n</code></pre>\n<pre><code class=\"language-unknown\">let a = 1\n</code></pre>\n")
    }

    @Test(arguments: ["swift", "python", "html", "sql", "shell", "json", "yaml", "css"])
    func anyTextTakesOnePassAndLosesNothing(language: String) throws {
        // Openers that never close, quotes and comments of every kind, in long runs.
        for unit in ["\"", "'", "`", "/*", "<!--", "\"\"\"", "<a b=\"", "\\", "#", "0x", "<", "ab "] {
            let text = String(repeating: unit, count: 20_000)
            let html = CodeHighlighter.html(text, language: try #require(CodeLanguage(info: language)))
            let shown = html.replacingOccurrences(of: #"<span class="hl-[a-z]+">|</span>"#, with: "", options: .regularExpression)
            #expect(shown == MarkdownDocument.escapedMarkup(text), "\(language) \(unit)")
        }
    }
}
