import Foundation
import NoteTakerKit

/// What Foundation's XML parser means by an error: on Linux its own text is only "error N",
/// N being libxml2's error number.
enum XMLErrorText {
    static func describe(_ error: any Error) -> Wording {
        switch (error as NSError).code {
        case 1: Wording("xmlGaveUp")
        case 4, 77: Wording("xmlEndsInElement")
        case 5: Wording("xmlNotClosed")
        case 9, 31, 32, 81: Wording("xmlBadCharacter")
        case 76: Wording("xmlWrongEndTag")
        case 64: Wording("xmlDeclarationNotFirst")
        case 23, 68, 73: Wording("xmlTagNotFinished")
        case 26, 27: Wording("xmlUnknownEntity")
        case 38, 39, 40, 41, 65: Wording("xmlBadAttribute")
        default: Wording("xmlNotWellFormed")
        }
    }
}
