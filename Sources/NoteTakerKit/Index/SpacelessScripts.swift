/// The scripts written without spaces between words: Han, Hiragana, Katakana, Hangul, Thai,
/// Lao, Khmer and Myanmar. Search cannot tell their words apart, so it indexes them as
/// overlapping pairs of characters (see ``SearchTokenizer``), and the snippet and the query
/// syntax treat each of their characters as a word of its own.
enum SpacelessScripts {
    /// Whether `value` (a Unicode scalar value) is a letter of a script written without spaces.
    static func contains(_ value: UInt32) -> Bool {
        switch value {
        case 0x0E00...0x0EFF,  // Thai, Lao
             0x1000...0x109F,  // Myanmar
             0x1100...0x11FF,  // Hangul Jamo
             0x1780...0x17FF,  // Khmer
             0x3005...0x3007, 0x3021...0x3029, 0x3031...0x3035, 0x303B,  // 々 〆 〇, Suzhou numerals, kana repeat marks
             0x3040...0x30FF,  // Hiragana, Katakana
             0x3100...0x312F, 0x3130...0x318F, 0x31A0...0x31BF, 0x31F0...0x31FF,  // Bopomofo, Hangul compatibility Jamo, Katakana extension
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF,  // CJK ideographs
             0xA960...0xA97F, 0xAC00...0xD7FF,  // Hangul syllables and Jamo
             0xFF66...0xFFDC,  // half-width Katakana and Hangul
             0x20000...0x3FFFF:  // CJK ideograph extensions
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` is a combining mark, which belongs to the character before it
    /// (Thai vowels and tone marks, Devanagari vowel signs, accents written apart).
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        // The blocks most text is in hold no marks: answered without Unicode's tables,
        // which the search index would otherwise consult for every CJK character.
        switch scalar.value {
        case 0...0x2FF, 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0x20000...0x3FFFF:
            return false
        default:
            break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}
