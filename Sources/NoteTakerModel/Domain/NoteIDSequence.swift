import Foundation

/// Makes the ids of new notes: ids made one after another sort next to each other, and the
/// first eight characters (the short id `notetaker list` shows) still differ from note to note.
///
/// Random ids (UUID version 4) put each new note at a random place in every index keyed by
/// its id: the note's own, its tags', the outbox's. Once those indexes outgrow the page
/// cache (about a million notes), every insert reads and rewrites pages from all over the
/// file, and an import of a million notes ran at 5,200 notes/s instead of 8,200.
///
/// Ids that start with the time they were made (version 7) fix that, but notes made in the
/// same minute would then share their first eight characters. So an id here starts with the
/// *low* 32 bits of the microseconds since 1970: they grow from one note to the next (a
/// batch's ids land together in each index), and they wrap every 72 minutes, so over days
/// they are spread like random ones. The other 74 bits are random; the id is a UUID of
/// version 8 (RFC 9562: laid out by the application), with 90 random bits. Nothing reads the
/// time back.
package struct NoteIDSequence {
    private var lastMicrosecond: UInt64 = 0
    /// The clock and the random bits.
    package let sources: StoreSources

    package init(sources: StoreSources) {
        self.sources = sources
    }

    /// The next id, made now (or at `date`): its microsecond is at least one past the last
    /// one's, so ids made faster than the clock ticks still differ in their short form.
    package mutating func next(at date: Date? = nil) -> UUID {
        let microseconds = (date ?? sources.now).timeIntervalSince1970 * 1_000_000
        // A clock that cannot be read as a count of microseconds counts on from the last id.
        let now = microseconds.isFinite && microseconds >= 0 && microseconds < 1.8e19 ? UInt64(microseconds) : 0
        lastMicrosecond = max(now, lastMicrosecond &+ 1)
        let time = UInt64(UInt32(truncatingIfNeeded: lastMicrosecond))
        let random = sources.randomBits()
        return UUID(version: 8, high: time << 32 | random >> 32, low: random << 32 | sources.randomBits() >> 32)
    }
}
