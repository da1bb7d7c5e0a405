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
struct NoteIDSequence {
    private var lastMicrosecond: UInt64 = 0
    private var generator = SystemRandomNumberGenerator()

    /// The id of one new note.
    static func one() -> UUID {
        var sequence = NoteIDSequence()
        return sequence.next()
    }

    /// The next id, made now (or at `date`): its microsecond is at least one past the last
    /// one's, so ids made faster than the clock ticks still differ in their short form.
    mutating func next(at date: Date = Date()) -> UUID {
        let microseconds = date.timeIntervalSince1970 * 1_000_000
        // A clock that cannot be read as a count of microseconds counts on from the last id.
        let now = microseconds.isFinite && microseconds >= 0 && microseconds < 1.8e19 ? UInt64(microseconds) : 0
        lastMicrosecond = max(now, lastMicrosecond &+ 1)
        let time = UInt64(UInt32(truncatingIfNeeded: lastMicrosecond))
        let random = generator.next() as UInt64
        let more = generator.next() as UInt64
        func byte(_ value: UInt64, _ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        return UUID(uuid: (
            byte(time, 24), byte(time, 16), byte(time, 8), byte(time, 0),
            byte(random, 56), byte(random, 48), 0x80 | byte(random, 40) & 0x0F, byte(random, 32),
            0x80 | byte(random, 24) & 0x3F, byte(random, 16), byte(random, 8), byte(random, 0),
            byte(more, 24), byte(more, 16), byte(more, 8), byte(more, 0)))
    }
}
