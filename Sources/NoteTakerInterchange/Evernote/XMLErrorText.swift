import Foundation

/// What Foundation's XML parser means by an error: on Linux its own text is only "error N",
/// N being libxml2's error number.
enum XMLErrorText {
    static func describe(_ error: any Error) -> String {
        switch (error as NSError).code {
        case 1: return "the XML parser gave up, which it does on a note with more than 10 MB of text"
        case 4, 77: return "the text ends in the middle of an element"
        case 5: return "an element is not closed, or text follows the end"
        case 9, 31, 32, 81: return "a character is not valid in the declared encoding"
        case 76: return "an element is closed by the wrong end tag"
        case 64: return "an XML declaration is not at the start"
        case 23, 68, 73: return "a tag is not finished"
        case 26, 27: return "an entity is not known or not finished"
        case 38, 39, 40, 41, 65: return "an attribute is not well written"
        default: return "the XML is not well-formed"
        }
    }
}
