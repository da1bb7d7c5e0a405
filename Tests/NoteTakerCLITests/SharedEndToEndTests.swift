import Foundation
import NoteTakerServerTestSupport
import Testing

/// Sharing end to end (docs/sharing.md §3): three accounts and five devices, each a real
/// `notetaker` on its own store — ada's laptop and phone (the owner), bob's laptop and phone
/// (an editor), cara's laptop (a viewer) — sharing one folder through a real `notetaker-server`
/// that is killed (at times in the middle of a sync) and restarted on the same data. Editors'
/// devices make notes in the share, move notes of their own into it, and each writes its own
/// line of any shared note; the viewer tries to. Each line has one owner, so the value every
/// device must end with is known: its owner's last one, and the viewer's never.
///
/// `NOTETAKER_SHARED_E2E_SEEDS` sets how many seeds run (2 by default), `…_FROM` the first.
@Suite("End to end: three accounts, five devices sharing a folder, a server that dies")
struct SharedEndToEndTests {
    static let seeds = TestSeeds.list("NOTETAKER_SHARED_E2E", defaultCount: 2)

    @Test("every editor's last line is on every member's device; the viewer's never lands", arguments: seeds)
    func everyEditSurvives(seed: UInt64) throws {
        var world = try SharedWorld(seed: seed)
        for _ in 0..<60 { try world.step() }
        try world.settle()
        try world.check()
    }
}

/// The five devices, the server, and each shared note's lines as their owners last wrote them.
private struct SharedWorld {
    /// Each device's line name, and the account it is.
    static let letters = ["a1", "a2", "b1", "b2", "c"]
    static let editors = 0..<4
    static let viewer = 4
    let seed: UInt64
    var random: SeededGenerator
    let dataDirectory: URL
    let port: Int
    var server: ServerProcess?
    let devices = (0..<5).map { _ in CLIRunner() }
    /// The shared notes, by id: each device's line, as it last wrote it.
    var notes: [String: [String]] = [:]
    var noteOrder: [String] = []
    var counter = 0
    var log: [String] = []

    init(seed: UInt64) throws {
        self.seed = seed
        random = SeededGenerator(seed: seed)
        let first = try ServerProcess()
        (dataDirectory, port, server) = (first.dataDirectory, first.url.port ?? 0, first)
        let address = first.url.absoluteString
        for (device, (user, registering)) in [("ada", true), ("ada", false), ("bob", true), ("bob", false), ("cara", true)].enumerated() {
            try devices[device].ok(["account", registering ? "register" : "login", "--server", address, "--user", user, "--password-stdin"],
                                   stdin: "correct horse battery \(user)")
        }
        try devices[0].ok(["folder", "new", "Trip"])
        try devices[0].ok(["share", "Trip", "--with", "bob"])
        try devices[0].ok(["share", "Trip", "--with", "cara", "--view"])
        try devices[2].ok(["share", "accept", "ada"])
        try devices[4].ok(["share", "accept", "ada"])
        // The other devices of ada and bob take the share up at their first sync.
        for device in [1, 3] { try devices[device].ok(["sync"]) }
    }

    static func body(_ lines: [String]) -> String { lines.joined(separator: "\n\n") }
    static var blank: [String] { letters.map { "\($0): -" } }

    /// One random thing a person or the server does.
    mutating func step() throws {
        counter += 1
        let device = Int.random(in: 0..<5, using: &random)
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<10 where Self.editors.contains(device):
            let title = "\(Self.letters[device])-note-\(counter)"
            let made = try devices[device].run(["new", title, "--body", Self.body(Self.blank), "--shared", "Trip", "--folder", "Trip"])
            log.append("\(counter): device \(device) new \(title) in the share -> \(made.status)")
            #expect(made.status == 0, "seed \(seed): \(made.stderr)")
            let id = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            notes[id] = Self.blank
            noteOrder.append(id)
        case 10..<15 where Self.editors.contains(device) && server != nil:
            try moveIn(from: device)
        case 15..<40 where !noteOrder.isEmpty:
            try editLine(device: device, note: noteOrder.randomElement(using: &random) ?? "")
        case 40..<72:
            try sync(device)
        case 72..<82:
            try killServer(duringSyncOf: device)
        case 82..<90 where server == nil:
            try startServer()
        default:
            try sync(device)
        }
    }

    /// A note of the device's account made in its own notes, then moved into the share.
    mutating func moveIn(from device: Int) throws {
        let id = try devices[device].ok(["new", "\(Self.letters[device])-own-\(counter)", "--body", Self.body(Self.blank)])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let moved = try devices[device].run(["share", "move", id, "--to", "Trip"])
        log.append("\(counter): device \(device) share move \(id) -> \(moved.status)")
        #expect(moved.status == 0, "seed \(seed), step \(counter): the move failed with the server up: \(moved.stderr)")
        guard moved.status == 0 else { return }
        notes[id] = Self.blank
        noteOrder.append(id)
    }

    /// Sets this device's line of a shared note, as read from its own copy; the viewer's is
    /// refused, changing nothing.
    mutating func editLine(device: Int, note id: String) throws {
        let shown = try devices[device].run(["show", id, "--shared", "Trip", "--json"])
        guard shown.status == 0, let body = (try shown.json() as? [String: Any])?["body"] as? String else { return }
        let letter = Self.letters[device]
        let line = "\(letter): v\(counter)"
        let lines = body.components(separatedBy: "\n\n").map { $0.hasPrefix("\(letter):") ? line : $0 }
        let edited = try devices[device].run(["edit", id, "--body", Self.body(lines), "--shared", "Trip"])
        log.append("\(counter): device \(device) edit \(id) \(line) -> \(edited.status)")
        if device == Self.viewer {
            #expect(edited.status == 1 && edited.stderr.contains("You may view this shared folder"), "seed \(seed): \(edited.stderr)")
            return
        }
        #expect(edited.status == 0, "seed \(seed), step \(counter): \(edited.stderr)")
        if edited.status == 0, let index = Self.letters.firstIndex(of: letter) { notes[id]?[index] = line }
    }

    /// A sync: it fails when the server is down (the changes wait), and must succeed when up.
    mutating func sync(_ device: Int) throws {
        let result = try devices[device].checkedSync(serverUp: server != nil, context: "seed \(seed), step \(counter), device \(device)")
        log.append("\(counter): device \(device) sync -> \(result.status)")
        if server != nil {
            #expect(!result.stdout.contains("not synced"), "seed \(seed), step \(counter): device \(device): \(result.stdout)")
        }
    }

    /// Kills the server with SIGKILL a few milliseconds into a device's sync (starts it when down).
    mutating func killServer(duringSyncOf device: Int) throws {
        guard let running = server else { return try startServer() }
        let result = try running.kill(duringSyncOf: devices[device], after: UInt32.random(in: 0..<80_000, using: &random))
        server = nil
        log.append("\(counter): killed the server during device \(device)'s sync -> \(result.status)")
    }

    mutating func startServer() throws {
        server = try ServerProcess(dataDirectory: dataDirectory, port: port)
        log.append("\(counter): server restarted")
    }

    /// Brings the server back and lets every device sync until all hold everything.
    mutating func settle() throws {
        if server == nil { try startServer() }
        for _ in 0..<2 {
            for device in devices.indices { try sync(device) }
        }
    }

    /// Every device holds every shared note with each editor's last line, the viewer's line
    /// untouched, nothing left to send, and none of the moved notes among its account's own.
    func check() throws {
        let context = "seed \(seed) (NOTETAKER_SHARED_E2E_FROM=\(seed) NOTETAKER_SHARED_E2E_SEEDS=1 replays it); steps:\n"
            + log.suffix(60).joined(separator: "\n")
        for (index, device) in devices.enumerated() {
            let status = try device.run(["sync", "status", "--json"]).json() as? [String: Any]
            #expect(status?["pending"] as? Int == 0, "device \(index) still has changes to send; \(context)")
            let listed = try device.run(["list", "--shared", "Trip", "--json", "--limit", "1000"]).json() as? [[String: Any]] ?? []
            #expect(Set(listed.compactMap { $0["id"] as? String }) == Set(noteOrder), "device \(index) lists other notes in the share; \(context)")
            let own = try device.run(["list", "--json", "--limit", "1000"]).json() as? [[String: Any]] ?? []
            #expect(Set(own.compactMap { $0["id"] as? String }).isDisjoint(with: noteOrder), "device \(index) keeps a shared note as its own; \(context)")
            for note in listed {
                guard let id = note["id"] as? String, let expected = notes[id] else { continue }
                let lines = (note["body"] as? String ?? "").components(separatedBy: "\n\n")
                #expect(lines == expected, "device \(index), note \(id); \(context)")
            }
        }
    }
}
