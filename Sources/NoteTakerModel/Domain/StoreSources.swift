import Foundation

/// Where a store takes the time and the randomness of new ids from.
///
/// Every time a store writes into a row or a record (a note's creation and change times, a
/// trashed note's date, a conflict copy's stamp), every time it decides by the clock (what is
/// recent, which versions of history to keep, which trashed notes are due), and every id it
/// makes (notes, folders, attachments, the device, each batch it sends) comes from here.
/// A store normally reads the system's clock and random numbers (``system``); a simulation
/// gives it a clock and numbers that follow from a seed, so that a run replays exactly.
///
/// The outbox's and the quarantine's own bookkeeping times, which nothing decides by and
/// nothing sends, read the system clock.
public struct StoreSources: Sendable {
    private let clock: @Sendable () -> Date
    private let bits: @Sendable () -> UInt64

    /// Sources that read `now` for the time and `randomBits` for 64 random bits at a time.
    public init(now: @escaping @Sendable () -> Date, randomBits: @escaping @Sendable () -> UInt64) {
        clock = now
        bits = randomBits
    }

    /// The system's clock and its cryptographically secure random numbers.
    public static let system = StoreSources(now: { Date() }, randomBits: {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    })

    /// The time now.
    public var now: Date { clock() }

    /// 64 random bits.
    package func randomBits() -> UInt64 { bits() }

    /// A random id (UUID version 4) for a folder, an attachment, a device or a batch.
    package func newID() -> UUID {
        UUID(version: 4, high: bits(), low: bits())
    }

    /// The id of one new note (see ``NoteIDSequence``).
    package func newNoteID() -> UUID {
        var sequence = NoteIDSequence(sources: self)
        return sequence.next()
    }
}
