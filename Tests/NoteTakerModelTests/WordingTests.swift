import Foundation
import NoteTakerModel
import Testing

/// Languages as environments and browsers name them, each language's plural forms and
/// numbers, and the errors' catalog filling its placeholders.
@Suite struct WordingTests {
    @Test func aLanguageIsFoundInPOSIXLocalesAndBrowserTags() {
        #expect(Language(tag: "de_DE.UTF-8") == .german)
        #expect(Language(tag: "fr_CA@euro") == .french)
        #expect(Language(tag: "es-MX") == .spanish)
        #expect(Language(tag: "zh_CN.UTF-8") == .simplifiedChinese)
        #expect(Language(tag: "zh-Hans-SG") == .simplifiedChinese)
        #expect(Language(tag: "zh") == .simplifiedChinese)
        #expect(Language(tag: "zh_TW.UTF-8") == nil, "traditional Chinese is not written in simplified characters")
        #expect(Language(tag: "zh-Hant-HK") == nil)
        #expect(Language(tag: "pt_BR") == nil)
        #expect(Language(tag: "") == nil)
    }

    @Test func theCommandLineSpeaksAsGettextChooses() {
        #expect(Language.of(environment: [:]) == .english)
        #expect(Language.of(environment: ["LANG": "de_DE.UTF-8"]) == .german)
        #expect(Language.of(environment: ["LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"]) == .french)
        #expect(Language.of(environment: ["LANG": "de_DE.UTF-8", "LC_ALL": "es_ES.UTF-8", "LC_MESSAGES": "fr_FR"]) == .spanish)
        #expect(Language.of(environment: ["LANG": "de_DE.UTF-8", "LANGUAGE": "pt_BR:fr:de"]) == .french, "the first of LANGUAGE spoken here")
        #expect(Language.of(environment: ["LANG": "C.UTF-8", "LANGUAGE": "fr"]) == .english, "LANGUAGE counts only outside the C locale")
        #expect(Language.of(environment: ["LANG": "POSIX"]) == .english)
        #expect(Language.of(environment: ["LANG": "ja_JP.UTF-8"]) == .english)
        #expect(Language.of(environment: ["LC_ALL": "", "LANG": "zh_CN.UTF-8"]) == .simplifiedChinese, "an empty variable is unset")
    }

    @Test func aRequestIsAnsweredInTheMostWantedLanguageSpokenHere() {
        #expect(Language.of(acceptLanguage: nil) == .english)
        #expect(Language.of(acceptLanguage: "de") == .german)
        #expect(Language.of(acceptLanguage: "pt-BR, fr;q=0.8, de;q=0.9") == .german)
        #expect(Language.of(acceptLanguage: "fr;q=0.5, es;q=0.5") == .french, "the first of equals")
        #expect(Language.of(acceptLanguage: "de;q=0, fr;q=0.1") == .french, "q=0 means not at all")
        #expect(Language.of(acceptLanguage: "zh-TW, zh-CN;q=0.7") == .simplifiedChinese)
        #expect(Language.of(acceptLanguage: ";;,q=,") == .english)
    }

    @Test func countsTakeEachLanguagesPluralForms() {
        #expect(Language.english.pluralCategory(of: 1) == .one)
        #expect(Language.english.pluralCategory(of: 0) == .other)
        #expect(Language.french.pluralCategory(of: 0) == .one, "French counts zero as one")
        #expect(Language.french.pluralCategory(of: 2) == .other)
        #expect(Language.french.pluralCategory(of: 2_000_000) == .many)
        #expect(Language.spanish.pluralCategory(of: 1_000_000) == .many)
        #expect(Language.spanish.pluralCategory(of: 0) == .other)
        #expect(Language.german.pluralCategory(of: 1) == .one)
        #expect(Language.simplifiedChinese.pluralCategory(of: 1) == .other)
    }

    @Test func numbersAreWrittenAsEachLanguageWritesThem() {
        #expect(Language.english.write(1_234_567) == "1,234,567")
        #expect(Language.german.write(12_345) == "12.345")
        #expect(Language.spanish.write(1_234) == "1234", "Spanish leaves four digits ungrouped")
        #expect(Language.spanish.write(12_345) == "12.345")
        #expect(Language.french.write(1_234) == "1\u{202F}234")
        #expect(Language.simplifiedChinese.write(-9_876) == "-9,876")
        #expect(Language.english.write(999) == "999")
    }

    @Test func anErrorIsWordedInTheReadersLanguageWithItsValuesAsTheyAre() {
        let error = NoteTakerError.folderNameTaken(name: "{parent}", parent: "Work")
        #expect(error.message == "A folder named '{parent}' already exists in 'Work'.", "a value is never read as a placeholder")
        #expect(error.message(in: .german) == "In „Work“ gibt es schon einen Ordner „{parent}“.")
        #expect(NoteTakerError.folderNameTaken(name: "Ideas", parent: nil).message(in: .french)
            == "Un dossier nommé « Ideas » existe déjà au premier niveau.")
        #expect(NoteTakerError.invalidInput(Wording("titleTooLong", ["maximum": 1000])).message(in: .german)
            == "Ein Titel darf höchstens 1.000 Zeichen lang sein.")
    }

    @Test func aCountChoosesItsFormAndAMissingStringFallsBackToEnglishThenToItsKey() {
        let files = [
            "S/en.json": Data(#"{"notes": {"one": "{count} note", "other": "{count} notes"}, "only": "English only"}"#.utf8),
            "S/fr.json": Data(#"{"notes": {"one": "{count} note", "many": "{count} de notes", "other": "{count} notes"}}"#.utf8),
            "S/de.json": Data("not JSON".utf8),
        ]
        let catalog = Catalog(files: files, folder: "S")
        #expect(catalog.text(Wording("notes", ["count": 0]), in: .french) == "0 note")
        #expect(catalog.text(Wording("notes", ["count": 3_000_000]), in: .french) == "3\u{202F}000\u{202F}000 de notes")
        #expect(catalog.text(Wording("notes", ["count": 0]), in: .english) == "0 notes")
        #expect(catalog.text(Wording("only"), in: .french) == "English only")
        #expect(catalog.text(Wording("notes", ["count": 2]), in: .german) == "2 notes", "a damaged catalog speaks English")
        #expect(catalog.text(Wording("missing"), in: .english) == "missing")
        #expect(catalog.text(Wording("notes"), in: .english) == "{count} notes", "without a count, the other form as it is")
    }

    @Test func everyLanguageOfTheErrorsCatalogHasEveryEnglishString() {
        let english = Catalog.errors.keys(in: .english)
        #expect(english.count > 50)
        for language in Language.allCases {
            #expect(Catalog.errors.keys(in: language) == english, "\(language)")
        }
    }
}
