import Foundation
import NoteTakerCLI
import Testing

@Suite("Progress bar")
struct ProgressBarTests {
    @Test("a fraction outside 0…1, or not a number, is drawn as the nearest end instead of stopping the program")
    func outOfRange() {
        #expect(ProgressLine.bar(0.5, width: 4) == "[##..]  50 %")
        #expect(ProgressLine.bar(1.7, width: 4) == "[####] 100 %")
        #expect(ProgressLine.bar(-0.2, width: 4) == "[....]   0 %")
        #expect(ProgressLine.bar(.nan, width: 4) == "[....]   0 %")
        #expect(ProgressLine.bar(.infinity, width: 4) == "[####] 100 %")
    }
}
