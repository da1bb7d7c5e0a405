import Foundation
import NoteTakerSyncProtocol
import Testing

/// base64url as the encryption format writes it: unpadded, one spelling for each value.
@Suite struct Base64URLTests {
    @Test func everyLengthRoundTripsAndMatchesFoundation() {
        for length in 0...70 {
            let data = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 251) })
            let text = Base64URL.encode(data)
            let standard = data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(text == standard)
            #expect(Base64URL.decode(text) == data)
        }
    }

    @Test func otherSpellingsAreRefused() {
        #expect(Base64URL.decode("AA") == Data([0]))
        for text in ["AB", "AAB", "AA==", "A", "+/8", "ab/c", "ab c", "é0", "AAAAA"] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
        }
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
    }
}
