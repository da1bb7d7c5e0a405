import Foundation
import Testing

/// The command line speaks the language its environment asks for, as gettext chooses it:
/// what it prints, its errors (the store's, sync's, its own) and its usage complaints; help
/// stays in English.
@Suite struct LanguageCommandTests {
    let cli = CLIRunner()

    private func environment(_ locale: String, language: String? = nil) -> [String: String] {
        var environment = ["LANG": locale]
        if let language { environment["LANGUAGE"] = language }
        return environment
    }

    @Test func errorsAndMessagesAreInTheLocalesLanguage() throws {
        let missing = try cli.run(["show", "zzzz"], environment: environment("de_DE.UTF-8"))
        #expect(missing.status == 1)
        #expect(missing.stderr == "Fehler: Keine Notiz passt zu „zzzz“. Mit `notetaker list` siehst du die IDs der Notizen.\n")

        let id = try cli.ok(["new", "Liste", "--body", "Milch"])
        let trashed = try cli.run(["rm", id], environment: environment("fr_FR.UTF-8"))
        #expect(trashed.status == 0)
        #expect(trashed.stderr == "1 note placée dans la corbeille.\n")

        let stats = try cli.run(["stats"], environment: environment("zh_CN.UTF-8"))
        #expect(stats.stdout.contains("废纸篓中"), "\(stats.stdout)")
        #expect(stats.stdout.contains("笔记库"))

        try cli.ok(["folder", "new", "Arbeit"])
        let taken = try cli.run(["folder", "new", "Arbeit"], environment: environment("es_ES.UTF-8"))
        #expect(taken.stderr == "error: Ya existe una carpeta llamada «Arbeit» en el nivel superior.\n")
    }

    @Test func languageListsPreferencesUnlessTheLocaleIsC() throws {
        #expect(try cli.run(["conflicts"], environment: environment("de_DE.UTF-8", language: "pt_BR:es")).stdout == "No hay conflictos.\n")
        #expect(try cli.run(["conflicts"], environment: environment("C.UTF-8", language: "de")).stdout == "No conflicts.\n")
        #expect(try cli.run(["conflicts"], environment: environment("ja_JP.UTF-8")).stdout == "No conflicts.\n", "a language not spoken here is English")
        #expect(try cli.run(["conflicts"], environment: ["LANG": "en_US.UTF-8", "LC_ALL": "de_DE.UTF-8"]).stdout == "Keine Konflikte.\n")
    }

    @Test func companionCommandsSpeakItToo() throws {
        let sync = try cli.run(["sync"], environment: environment("de_DE.UTF-8"))
        #expect(sync.status == 1)
        #expect(sync.stderr.hasPrefix("Fehler: Auf diesem Gerät ist kein Synchronisierungskonto eingerichtet."), "\(sync.stderr)")

        let folder = cli.directory.appendingPathComponent("import")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "# Courses\n\n- lait".write(to: folder.appendingPathComponent("Courses.md"), atomically: true, encoding: .utf8)
        let imported = try cli.run(["import", folder.path], environment: environment("fr_FR.UTF-8"))
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("1 note trouvée. Importées : 1 ; déjà là d’un import précédent : 0 ; ignorées : 0."), "\(imported.stdout)")

        // A file that cannot come in is named with the importer's reason, in the reader's language too.
        try Data([0x43, 0x61, 0x66, 0xE9, 0xFF, 0xFE]).write(to: folder.appendingPathComponent("Ancien.md"))
        let skipped = try cli.run(["import", folder.path], environment: environment("es_ES.UTF-8"))
        #expect(skipped.status == 1)
        #expect(skipped.stdout.contains("omitida  Ancien.md: el archivo no es texto UTF-8"), "\(skipped.stdout)")
        let json = try #require(try cli.run(["import", folder.path, "--json"], environment: environment("es_ES.UTF-8")).json() as? [String: Any])
        let reasons = (json["skipped"] as? [[String: Any]])?.compactMap { $0["reason"] as? String }
        #expect(reasons?.first?.hasPrefix("the file is not UTF-8 text") == true, "--json stays in English: \(json)")
    }

    @Test func usageComplaintsAreTranslatedAndHelpStaysEnglish() throws {
        let usage = try cli.run(["search"], environment: environment("de_DE.UTF-8"))
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("Gib an, wonach gesucht werden soll: Wörter oder --contains TEXT."), "\(usage.stderr)")
        let help = try cli.run(["new", "--help"], environment: environment("de_DE.UTF-8"), store: false)
        #expect(help.stdout.contains("Create a note and print its id."))
    }
}
