import ArgumentParser
import Foundation
import NoteTakerKit

/// `notetaker preferences`: how notes are shown, the same preferences the web app's Settings
/// changes (the PDF export follows them too).
struct PreferencesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preferences", abstract: "Show or change how notes are shown in the web app and in PDF exports.")

    @Option(
        name: .customLong("line-breaks"),
        help: "Whether a single line break inside a paragraph shows as one (on, the default) or as a space (off, CommonMark's rule).")
    var lineBreaks: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: JSONFlag

    func validate() throws {
        if let lineBreaks, !["on", "off"].contains(lineBreaks) { throw Words.usage("takesOnOrOff", ["option": "--line-breaks"]) }
    }

    func run() throws {
        let store = try lineBreaks == nil ? storeOptions.openForReading() : storeOptions.open()
        var preferences = try store.preferences()
        if let lineBreaks {
            preferences.lineBreaks = lineBreaks == "on"
            try store.setPreferences(preferences)
        }
        if output.json { return try JSONOutput.print(preferences) }
        TextOutput.printFields([(Words.text("preference_lineBreaks"), Words.text(preferences.lineBreaks ? "lineBreaksOn" : "lineBreaksOff"))])
    }
}
