import Testing
@testable import NoteTakerKit

/// The byte comparison under `search --contains`.
@Suite struct SubstringMatchTests {
    func contains(_ text: String, _ part: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { text in
            Array(part.utf8).withUnsafeBufferPointer { SubstringMatch.contains(text, $0) }
        }
    }

    @Test("inside words, ASCII letters in any case, every position, other bytes exactly")
    func cases() {
        #expect(contains("coffee", "ffee") && contains("COFFEE", "ffee") && contains("coffee", "FFeE"))
        #expect(contains("coffee", "c") && contains("coffee", "e") && contains("coffee", "coffee"))
        #expect(!contains("coffee", "coffees") && !contains("coffee", "fey") && !contains("", "a"))
        #expect(contains("anything", "") && contains("", ""))
        #expect(contains("aaab", "aab") && contains("AaAb", "aab"), "a false start does not skip the true one")
        #expect(contains("Ab aB xab", "ab xA") && !contains("Ab aB xab", "ab y") && contains("xx aBc", "ABC"), "either case of the first letter starts a match")
        #expect(contains("東京タワーに行きました", "タワー") && !contains("東京タワー", "タワ ー"))
        #expect(contains("Straße", "SSE") == false && contains("Straße", "aße"), "only ASCII letters fold")
        #expect(contains("path/to/file_name.txt", "_NAME.") && contains("1+1=2", "+1="))
        #expect(!contains("résumé", "RÉSUMÉ"), "accented capitals are other bytes")
    }
}
