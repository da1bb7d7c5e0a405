import NoteTakerKit
@testable import NoteTakerInterchange
import Testing

/// The printed page follows the store's preferences as the web app's preview does.
@Suite struct PrintBlockTests {
    @Test func singleLineBreaksPrintAsThePreferenceSays() {
        let text = "roses are red\nviolets are blue"
        #expect(PrintBlock.blocks(text, preferences: Preferences(lineBreaks: true)) == [.paragraph(markup: "roses are red\nviolets are blue")])
        #expect(PrintBlock.blocks(text, preferences: Preferences(lineBreaks: false)) == [.paragraph(markup: "roses are red violets are blue")])
    }
}
