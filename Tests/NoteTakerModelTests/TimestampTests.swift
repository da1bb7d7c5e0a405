import Foundation
import NoteTakerModel
import Testing

@Suite struct TimestampTests {
    @Test(arguments: [0, 1_795_327_492.538, 1_795_327_492.9996, 951_782_400.001, -86_400.5, 4_102_444_800])
    func datesAreISO8601InUTCWithMilliseconds(_ seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let text = Timestamp.string(date)
        #expect(text == Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date))
        #expect(Timestamp.date(from: text).map(Timestamp.string) == text)
    }

    @Test func readsDatesWithoutFractionsAndPlainDays() {
        #expect(Timestamp.date(from: "2024-03-01T10:20:30Z") == Date(timeIntervalSince1970: 1_709_288_430))
        #expect(Timestamp.date(from: "2024-03-01") == Date(timeIntervalSince1970: 1_709_251_200))
        #expect(Timestamp.date(from: "yesterday") == nil)
        #expect(Timestamp.date(from: "2024-02-30T10:20:30.000Z") == nil, "no 30th of February")
        #expect(Timestamp.date(from: "2024-13-01T10:20:30.000Z") == nil)
        #expect(Timestamp.date(from: "2024-03-01T10:20:30.250Z") == Date(timeIntervalSince1970: 1_709_288_430.25))
    }
}
