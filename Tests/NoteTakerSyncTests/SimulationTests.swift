import Foundation
import NoteTakerServerTestSupport
import Testing

/// The randomized multi-device simulation. 200 seeds by default;
/// `NOTETAKER_SIM_SEEDS=N` runs more, `NOTETAKER_SIM_FROM=S` starts elsewhere (to replay one).
/// `scripts/simulate --seeds N [--from S]` sets them; a failure names its seed.
@Suite("Randomized multi-device simulation")
struct SimulationTests {
    static let seeds = TestSeeds.list("NOTETAKER_SIM", defaultCount: 200)

    @Test("4 devices, faulty network, server restarts and restores: replicas converge and no edit is lost")
    func simulate() async throws {
        let outcomes = try await Self.run(Self.seeds, sealed: false)
        #expect(outcomes.count == Self.seeds.count)
        // A full run did meet what it is meant to survive (one replayed seed may not).
        if outcomes.count >= 50 {
            #expect(outcomes.reduce(0) { $0 + $1.faults } > 0)
            #expect(outcomes.reduce(0) { $0 + $1.conflicts } > 0)
            #expect(outcomes.reduce(0) { $0 + $1.edits } > 0)
        }
        // A restore needs a backup and then a later server event that restores it: about one
        // seed in fifty draws both, so 100 seeds (CI's moving window) meet none about one time
        // in seven (as c407b58's window did), 500 seeds about one time in twenty thousand.
        if outcomes.count >= 500 {
            #expect(outcomes.reduce(0) { $0 + $1.restores } > 0, "no seed of \(outcomes.count) restored the server")
        }
    }

    /// The same runs with end-to-end encryption: every record goes up sealed and comes down
    /// opened, and every property above holds, while devices now and then rotate the account's
    /// keys (the others learn each key when they meet it, and the rotating device seals the kept
    /// versions again, after which every kept version opens). A quarter of the seeds (each at
    /// least once).
    @Test("the same, end to end encrypted: replicas converge and no edit is lost")
    func simulateSealed() async throws {
        let seeds = Array(Self.seeds.prefix(max(1, Self.seeds.count / 4)))
        let outcomes = try await Self.run(seeds, sealed: true)
        #expect(outcomes.count == seeds.count)
        if outcomes.count >= 50 {
            #expect(outcomes.reduce(0) { $0 + $1.conflicts } > 0)
            #expect(outcomes.reduce(0) { $0 + $1.rotations } > 0)
            #expect(outcomes.reduce(0) { $0 + $1.resealed } > 0, "no rotation left kept versions to seal again")
        }
    }

    /// The same runs on an account without encryption that a device converts to end-to-end
    /// encryption midway (``SimulatedConversion``): the others are logged out, edit offline,
    /// log in again (taking the conversion up when it was cut short) and seal from then on;
    /// every property above holds, and at the end the server holds nothing in plain text.
    ///
    /// Its own seeds, 50 by default (`NOTETAKER_CONVERT_SEEDS`, `NOTETAKER_CONVERT_FROM`;
    /// `scripts/simulate --converting N`), not CI's moving window yet: through seed 1060 it found
    /// a fault every 40–180 seeds (issue 41's notes), each mended replayed by
    /// ``foundConversionFaults(seed:)``.
    @Test("the same, converted to end-to-end encryption midway: replicas converge, no edit is lost, nothing stays in plain text")
    func simulateConversion() async throws {
        let seeds = TestSeeds.list("NOTETAKER_CONVERT", defaultCount: 50)
        let outcomes = try await Self.run(seeds, converting: true)
        #expect(outcomes.count == seeds.count)
        if outcomes.count >= 50 {
            #expect(outcomes.reduce(0) { $0 + $1.conflicts } > 0)
            #expect(outcomes.reduce(0) { $0 + $1.rotations } > 0)
            #expect(outcomes.reduce(0) { $0 + $1.takenUp } > 0, "no conversion was cut short and taken up")
        }
    }

    /// The same runs with the server backed up and restored far more often
    /// (``Simulation/restoring``): every device heals, every property above holds. Its own
    /// seeds, 50 by default (`NOTETAKER_RESTORE_SEEDS`, `NOTETAKER_RESTORE_FROM`;
    /// `scripts/simulate --restoring N`), and 50 in CI's moving window: the plain run restores
    /// about one seed in fifty, and two faults of the heal were found only by the converting
    /// run's restores. Seeds 1–1,200 passed when it was made.
    @Test("the same, the server restored from its backups again and again: replicas converge and no edit is lost")
    func simulateRestores() async throws {
        let seeds = TestSeeds.list("NOTETAKER_RESTORE", defaultCount: 50)
        let outcomes = try await Self.run(seeds, restoring: true)
        #expect(outcomes.count == seeds.count)
        if outcomes.count >= 50 {
            // Not every seed restores (a restore needs a backup before it): half or fewer happen
            // by chance (23 of the 50 from 107,501), a quarter or fewer would take a broken draw.
            #expect(outcomes.filter { $0.restores > 0 }.count * 4 > outcomes.count, "the server is restored in a quarter of the seeds at least")
        }
    }

    /// Runs seeds two at a time (this machine has two cores); each seed is independent.
    private static func run(
        _ list: [UInt64], sealed: Bool = false, converting: Bool = false, restoring: Bool = false
    ) async throws -> [Simulation.Outcome] {
        try await withThrowingTaskGroup(of: Simulation.Outcome.self) { group in
            var results: [Simulation.Outcome] = []
            var seeds = list.makeIterator()
            for _ in 0..<2 {
                if let seed = seeds.next() { group.addTask { try await Simulation(seed: seed, deviceCount: 4, steps: 60, sealed: sealed, converting: converting, restoring: restoring).run() } }
            }
            while let outcome = try await group.next() {
                results.append(outcome)
                if let seed = seeds.next() { group.addTask { try await Simulation(seed: seed, deviceCount: 4, steps: 60, sealed: sealed, converting: converting, restoring: restoring).run() } }
            }
            return results
        }
    }

    /// Seeds that found a fault once (in a run of `scripts/simulate` or CI's window), replayed
    /// on every run.
    @Test("seeds that once found a fault still pass", arguments: [
        1_564,      // a batch sent again after a tombstone purge was answered from before the deletion
        1_968,      // a batch decided anew met its own first write, taken as another device's
        1_816_520,  // as 1564, with a tag
        5_425_181,  // a tag made again by tagging a note, on a device that had not seen it, beat its deletion
        6_449,      // a listing cut short went on past a purge of a deletion it had crossed off
        7_074,      // a tag made again after its deletion hid the deletion from a device holding it from before
        5_695,      // a device behind took the tag made again off a note tagged again, merged in by its own push
        6_125,      // as 5695, the tag made again coming in the answer to the same push
        7_184,      // a device that sent a folder before it ever fetched kept it after its deletion was purged
        3_237,      // as 7184, for a device whose only fetch was of the account empty
        7_774,      // as 7184
        7_852,      // a creation sent again after a purge forgot its answer merged with no base: a tag taken off came back
        8_438,      // as 7852 for a save: a note restored from the trash went back to the trash
        7_956,      // a listing after a purge forgot the token that tells of a restore, and an edit was lost
        9_206,      // a change the listing made on its own (a deleted tag taken off) brought back a note deleted elsewhere
        1_546,      // an edit sent again against a deletion was merged as though its first send had reached the server
        7_636,      // a restored server's heal, its request lost, was taken for a creation when sent again: an edit was lost
        2_227_343,  // a note purged where it was made, its creation's answer lost, came back: another device had moved it out of a deleted folder
        6_590_872,  // the check that a sync keeps what it replaced in history did not spare purged notes, as the text check does
        1_013,      // a tag made again over its purged deletion was taken for a derived save of a deleted record, and dropped
        5_973_339,  // a note from before a tag's deletion kept the tag in its base: tagged with the tag made again, it lost it in a merge
        5_973_423,  // a device that merged a note tagged after a tag's deletion took the tag off when the deletion came down
        20_458,     // a deletion refused for a restore, sent again before the catch-up ended, took a later edit numbered as its base
        21_699,     // a folder shown at the top level, its parent not received yet, "moved" to the top by hand overrode where it was made
        24_999,     // a heal that sent again a deletion the restore lost took a revival of the note lost with it too (an edit): numbers across a restore do not compare (the tombstone now keeps the deletion's number)
    ] as [UInt64])
    func foundFaults(seed: UInt64) async throws {
        _ = try await Simulation(seed: seed, deviceCount: 4, steps: 60).run()
    }

    /// The same, for seeds of the restoring run (``simulateRestores()``).
    @Test("restoring seeds that once found a fault still pass", arguments: [
        1_937,  // a heal cut short did not notice the server restored again, and listed after a purge: a folder the restore lost was deleted
        2_123,  // as 1937: the devices differed
        2_816,  // a heal that found the account empty kept a token for nothing, and missed a folder's deletion purged before its next fetch
        4_138,  // a tag made again long after its deletion yielded to the deletion's purged tombstone, back with a restore
        4_466,  // a heal sent again a folder deleted and purged while its listing was cut: the server made it again
        7_510,  // a change that brought back a note deleted elsewhere lost its merge base: merged with another revival, it won every property
    ] as [UInt64])
    func foundRestoringFaults(seed: UInt64) async throws {
        _ = try await Simulation(seed: seed, deviceCount: 4, steps: 60, restoring: true).run()
    }

    /// The same, for seeds whose fault showed end to end encrypted.
    @Test("sealed seeds that once found a fault still pass", arguments: [
        907,    // a rotation's re-seal, sent after the server purged a folder's deletion the device had missed, made the folder again
        1_337,  // a folder's creation, its answer lost, sent again after its deletion was purged, made it again at an older revision
    ] as [UInt64])
    func foundSealedFaults(seed: UInt64) async throws {
        _ = try await Simulation(seed: seed, deviceCount: 4, steps: 60, sealed: true).run()
    }

    /// The same, for seeds whose fault showed converting the account to encryption midway.
    @Test("converting seeds that once found a fault still pass", arguments: [
        10,  // a tag another device deleted before the conversion stayed, renamed, on a device offline through it
        14,  // the converting device's tag, sent again under its new id as an edit, came back over a deletion made since
        16,  // a tag deleted here before this device learned of the conversion stayed on the server under its new id
        26,  // a new case of a tag's name, waiting under the old id, lost its base and yielded to the conversion's copy
        29,  // an edit refused against a version in plain text, mid-conversion, never went up once the sealed one came
        41,  // a note's base named its tags' old ids: a tag taken off it elsewhere came back
        43,  // a creation's batch forgotten at the adoption was merged as though its new batch were the first: an edit was lost
        63,  // a device taking the conversion up sent under its new id a tag deleted elsewhere since it last synced
        113, // a tag deleted here before this device took the conversion up came back when the converting device sent it later
        119, // a tag (and a note) a lost answer left in plain text under the old ids held every device's conversion up for good
        148, // an edit a lost answer left in plain text was refused, sent again sealed, as the server's possible invention
        74,  // a server restored from a backup taken during the conversion held records in plain text that no device sealed
        157, // a restore forgot the sessions made after its backup (the devices log in again)
        203, // a deletion refused against plain text never went up; a tag the converting device deleted came back
        279, // a device taking the conversion up missed a tag's deletion the server had purged, and sent the tag again
        472, // the converting device's sealed deletion of a tag's old id arrived without its save under the new id: taken for a deletion
        429, // a conversion's save yielded to a deletion answered to it, whose revision stayed: the note brought back was held
        593, // the converting device, away past a purge, sent a renamed tag another device had deleted before fetching
        596, // a tag deleted and made again before its deletion went up sent no deletion: a note brought back kept it
        789, // a merge of a note tagged again, sent in the same push before the tag made again came down, lost the tag
        486, // an edit in a batch forgotten at the adoption, applied with its answer lost, outlived the device's later edit undoing it
        359, // a tag's version came back as the answer to the device's own push, no fetch brought it, and it was taken for deleted
        6345705, // a rotation right after the conversion replaced its pass: versions in plain text stayed on the server
        9906309, // the last step deleted a tag's tombstone under its old id, which a device taking the conversion up had not fetched
        1057, // a device taking the conversion up finished it before the converting device's tags went up under their new ids
        838, // a tag's new case sent in plain text before the conversion lost to its older case, sent under the new id first
        706, // the same: two devices taking the conversion up sent the older case first
        1015, // a note naming a tag by its old id (the tag never received there) went up sealed, and the old id replaced the tag
        3000126, // a page staged in plain text before a device followed the conversion was applied unopened: tags under old ids
        3000148, // a note made here, its answer lost, replaced another device's plain-text edit of it: a tag added there was lost
        3000251, // a note named a tag the converting device had deleted: its last step waited for the tag for good
        3000427, // a tag made here, its answer lost, then renamed: the other device's conversion sent the old case, which won
        3000849, // a tag made here and its case changed before it first synced met the same tag from elsewhere and yielded
        3001062, // a device that never held a tag finished the conversion before the tag went up under its new id
        3001176, // an edit refused against plain text stayed failed when the note's deletion arrived instead: it never went up
        3001289, // a device waited for good for a tag it held in plain text, though another device had finished the conversion
        3001797, // a device healing a restored server (its answered batch lost) undid a folder rename it had never fetched
        3002257, // a tag the converting device deleted came back from a device taking the conversion up, its deletion purged
        3002602, // a heal's fetch after its batch left out a tag this device made before the backup and deleted after it
        3004075, // a batch sent again after its kept answer was dropped met its note sealed with a rotated key, learned none: a tag came back
        3004856, // a creation sent again met a deletion, taken for the only creation though a forgotten batch made the note: an edit lost
        3006953, // a folder deleted by a device that held its rename unopened (plain text while it sealed) came back: the oracle took the rename as seen
        3007204, // a tag deleted before the device learned of the conversion and made again after went with the converted one it deleted
        3008687, // the converting device, back after a purge took a person's deletion of a tag's new id, took the old id's sealed deletion for a rename
        3016001, // a folder cycle broken for good (a derived move to the top) outlived the move that undid it: a person's move lost
        3017192, // a heal taken up after the conversion replaced a version in plain text it never saw (another device's edit), which that device then merged away
        3018157, // the same, an edit made after the restore replaced by the heal of a device logging in after the conversion
        3018209, // a file attached to a note deleted where it never arrived stayed on the server, in plain text: the conversion never ended
        3015801, // a note purged after a backup taken mid-conversion came back in plain text from the restored copy, no device holding it: the conversion never ended
        3014332, // a note brought back by a device away through its deletion's purge was sealed below a revision others had seen, and held there as a replay
    ] as [UInt64])
    func foundConversionFaults(seed: UInt64) async throws {
        _ = try await Simulation(seed: seed, deviceCount: 4, steps: 60, converting: true).run()
    }

    @Test("a seed replays exactly: two runs, side by side, give the same trace, ids included")
    func aSeedReplaysExactly() async throws {
        for seed: UInt64 in [7, 2106, 4264] {
            async let first = Simulation(seed: seed, deviceCount: 4, steps: 60).run()
            async let second = Simulation(seed: seed, deviceCount: 4, steps: 60).run()
            let (one, other) = try await (first.trace, second.trace)
            #expect(one.contains { $0.contains(" create ") }, "seed \(seed) made no note")
            if let step = zip(one, other).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record("seed \(seed) replays differently from step \(step):\n\(one[step])\n\(other[step])")
            }
            #expect(one.count == other.count)
        }
    }
}
