import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NoteTakerKit
import NoteTakerMarkdown
import NoteTakerWeb

/// The `web` suite: the list API's first page (server time, from `Server-Timing`, and the
/// whole request) beside plain SQL fetching the same page, and the page loaded and usable in
/// headless Chromium (`scripts/bench-page.py`), on a store of `noteCount` notes.
struct WebBenchmark {
    let store: StoreBenchmark
    let requests: Int
    let pageLoads: Int
    let pageScript: URL

    func run() async throws -> Report {
        let report = Report(suite: "web", notes: store.noteCount, machine: Report.machine())
        let notes = try NoteStore.open(at: store.directory.appendingPathComponent("NoteTaker.sqlite"))
        let baseline = try Baseline(path: store.directory.appendingPathComponent("baseline.sqlite").path)
        var generator = SeededGenerator(seed: store.seed)
        _ = try store.importCorpus(into: notes, baseline, &generator)

        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let key = LocalAccessKey.random()
        let app = try buildWebApplication(store: notes, configuration: WebConfiguration(key: key, port: 0)) { continuation.yield($0) }
        let server = try await BackgroundServer.start(app, ports: ports)
        return try await BackgroundServer.stopping([server]) {
            try await measure(into: report, address: server.url.absoluteString, key: key, notes: notes, baseline: baseline, generator: &generator)
        }
    }

    private func measure(
        into report: Report, address: String, key: LocalAccessKey, notes: NoteStore, baseline: Baseline, generator: inout SeededGenerator
    ) async throws -> Report {
        var report = report

        store.progress("Requesting the list's first page \(requests) times...")
        var serverTimes: [Double] = []
        var wholeTimes: [Double] = []
        var sqlTimes: [Double] = []
        for _ in 0..<requests {
            let start = ContinuousClock.now
            let timing = try await Self.serverTiming(of: "\(address)/api/v1/notes?limit=50", key: key)
            wholeTimes.append(Clock.milliseconds(since: start))
            serverTimes.append(timing)
            sqlTimes.append(try Clock.milliseconds { _ = try baseline.firstPage() })
        }
        report.figures.append(Figure(
            name: "list API first page (50), server time p50", unit: "ms",
            noteTaker: Clock.percentile(serverTimes, 0.5), baseline: Clock.percentile(sqlTimes, 0.5),
            budget: "<= 5 ms", meetsBudget: Clock.percentile(serverTimes, 0.5) <= 5,
            note: "Server-Timing of GET /api/v1/notes?limit=50 (query, JSON, headers); baseline: the same page in plain SQL"))
        report.figures.append(Figure(
            name: "list API first page, whole request p50 / p95", unit: "ms",
            noteTaker: Clock.percentile(wholeTimes, 0.5), baseline: nil, budget: "-", meetsBudget: nil,
            note: String(format: "p95 %.2f ms, loopback HTTP from the same process", Clock.percentile(wholeTimes, 0.95))))

        store.progress("Rendering a 25,000-character note 200 times...")
        let markdown = Self.structuredNote(corpus: store.corpus, characters: 25_000, generator: &generator)
        var renderTimes: [Double] = []
        for _ in 0..<200 {
            renderTimes.append(Clock.milliseconds {
                // As the web app renders it: links by title, line breaks shown, code highlighted.
                _ = MarkdownDocument(parsing: markdown, syntax: [.notes, .lineBreaks])
                    .html(options: MarkdownHTMLOptions(tickableTasks: true, highlightsCode: true))
            })
        }
        report.figures.append(Figure(
            name: "Markdown of a 25,000-character note to HTML, p50", unit: "ms",
            noteTaker: Clock.percentile(renderTimes, 0.5), baseline: nil,
            budget: "<= 5 ms", meetsBudget: Clock.percentile(renderTimes, 0.5) <= 5,
            note: String(format: "the preview's and PDF's parser (CommonMark and GitHub's extensions); p95 %.2f ms; "
                         + "headings, lists, tasks, quotes, code, tables, links and emphasis over the corpus's prose",
                         Clock.percentile(renderTimes, 0.95))))

        store.progress("Rendering Markdown written to be slow, at 100 kB, 1 MB and 4 MB...")
        report.figures += hostileMarkdown()

        store.progress("Typing 300 characters at the end of that note in headless Chromium, twice...")
        let long = try notes.createNote(NoteDraft(title: "A long note", body: markdown))
        let typingPage = PageLoad(script: pageScript)
        if let typing = try typingPage.measureTyping(url: key.entryAddress(base: address + "/") + "#note=\(long.id.key)", characters: 300, unthrottled: true),
           let atRefresh = try typingPage.measureTyping(url: key.entryAddress(base: address + "/") + "#note=\(long.id.key)", characters: 300, unthrottled: false) {
            let p95 = Clock.percentile(typing.paint, 0.95)
            report.figures.append(Figure(
                name: "typing in a 25,000-character note, key to paint p95", unit: "ms", noteTaker: p95, baseline: nil,
                budget: "<= 16 ms", meetsBudget: p95 <= 16,
                note: String(format: "keys at any moment, to the frame that paints them, a frame drawn as soon as asked for "
                             + "(p50 %.1f ms, max %.1f ms); the key's own work (handlers, drawing its line, layout) p50 %.2f ms, "
                             + "p95 %.2f ms. At a 60 Hz display's refresh a key also waits for the next one, up to 16.7 ms "
                             + "whatever the page does: then p50 %.1f ms, p95 %.1f ms",
                             Clock.percentile(typing.paint, 0.5), typing.paint.max() ?? 0,
                             Clock.percentile(typing.work, 0.5), Clock.percentile(typing.work, 0.95),
                             Clock.percentile(atRefresh.paint, 0.5), Clock.percentile(atRefresh.paint, 0.95))))
        }

        store.progress("Loading the page in headless Chromium \(pageLoads) times...")
        if let loads = try PageLoad(script: pageScript).measure(url: key.entryAddress(base: address + "/"), times: pageLoads) {
            let median = Clock.percentile(loads, 0.5)
            report.figures.append(Figure(
                name: "page loaded and usable in Chromium, p50", unit: "ms", noteTaker: median, baseline: nil,
                budget: "<= 300 ms", meetsBudget: median <= 300,
                note: String(format: "navigation start to the first list and sidebar drawn; p95 %.0f ms over %d loads", Clock.percentile(loads, 0.95), loads.count)))
        } else {
            store.progress("  skipped: chromium, chromedriver or selenium missing (scripts/test installs them)")
        }
        return report
    }

    /// A figure per input of ``HostileMarkdown``: its time at 4 MB, and whether its time per
    /// megabyte there is at most twice that at 100 kB (linear, within the machine's noise).
    private func hostileMarkdown() -> [Figure] {
        HostileMarkdown.inputs.map { input in
            let texts = HostileMarkdown.sizes.map(input.make)
            let times = texts.map { HostileMarkdown.render($0, times: $0.utf8.count > 1_000_000 ? 1 : 3) }
            let perMegabyte = zip(times, texts).map { $0 / (Double($1.utf8.count) / 1_000_000) }
            let growth = perMegabyte[2] / perMegabyte[0]
            return Figure(
                name: "Markdown written to be slow: \(input.name), 4 MB", unit: "ms", noteTaker: times[2], baseline: nil,
                budget: "per MB at 4 MB <= 2x per MB at 100 kB", meetsBudget: growth <= 2,
                note: String(format: "100 kB %.1f ms, 1 MB %.1f ms, 4 MB %.1f ms: per MB, 4 MB takes %.2fx what 100 kB takes",
                             times[0], times[1], times[2], growth))
        }
    }

    /// The `Server-Timing` duration of a GET, in milliseconds.
    static func serverTiming(of address: String, key: LocalAccessKey) async throws -> Double {
        guard let url = URL(string: address) else { throw BenchFailure("bad address \(address)") }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(key.value)", forHTTPHeaderField: "Authorization")
        let response: HTTPURLResponse = try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { _, response, error in
                if let response = response as? HTTPURLResponse, response.statusCode == 200 {
                    continuation.resume(returning: response)
                } else {
                    continuation.resume(throwing: error ?? BenchFailure("GET \(address) failed"))
                }
            }.resume()
        }
        guard let header = response.value(forHTTPHeaderField: "Server-Timing"),
              let duration = header.split(separator: "=").last.flatMap({ Double($0) }) else {
            throw BenchFailure("no Server-Timing header")
        }
        return duration
    }
}

/// Page loads, or typing in a note, measured by `scripts/bench-page.py` in headless Chromium.
struct PageLoad {
    let script: URL

    /// The milliseconds of each load, or `nil` when the browser or its driver is missing.
    func measure(url: String, times: Int) throws -> [Double]? {
        guard let output = try run([url, String(times)]) else { return nil }
        guard let samples = output as? [Double] else { throw BenchFailure("scripts/bench-page.py answered \(output)") }
        return samples
    }

    /// Typing `characters` characters: each one's key to paint and its own work (handlers
    /// and layout), in milliseconds; `nil` when the browser or its driver is missing.
    /// `unthrottled`: frames drawn when asked for, not at the display's refresh.
    func measureTyping(url: String, characters: Int, unthrottled: Bool) throws -> (paint: [Double], work: [Double])? {
        guard let output = try run([url, String(characters), "--type"] + (unthrottled ? ["--unthrottled"] : [])) else { return nil }
        guard let object = output as? [String: Any], let paint = object["paint"] as? [Double], let work = object["work"] as? [Double] else {
            throw BenchFailure("scripts/bench-page.py answered \(output)")
        }
        return (paint, work)
    }

    /// The script's JSON answer, or `nil` when it says the browser is missing.
    private func run(_ arguments: [String]) throws -> Any? {
        let (status, data) = try ProcessTiming.output(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path] + arguments, errors: FileHandle.standardError)
        if status == 3 { return nil }
        guard status == 0, let answer = try? JSONSerialization.jsonObject(with: data) else {
            throw BenchFailure("scripts/bench-page.py failed: \(String(decoding: data, as: UTF8.self))")
        }
        return answer
    }
}

extension WebBenchmark {
    /// A long note written the way people structure one: the corpus's sentences under
    /// headings, in lists, task lists, quotes, code blocks and tables, with emphasis and links.
    static func structuredNote(corpus: Corpus, characters: Int, generator: inout SeededGenerator) -> String {
        var text = ""
        var section = 0
        while text.utf8.count < characters {
            let words = (0..<8).map { _ in corpus.word(&generator) }
            switch section % 7 {
            case 0: text += "## \(corpus.title(&generator))\n\n"
            case 1: text += "\(corpus.body(&generator)) See **\(words[0])** and _\(words[1])_, or [\(words[2])](https://example.com/\(words[3])).\n\n"
            case 2: text += (0..<5).map { "- \(words[$0]) \(words[$0 + 1]) `\(words[$0 + 2])`" }.joined(separator: "\n") + "\n\n"
            case 3: text += (0..<4).map { "- [\($0 % 2 == 0 ? " " : "x")] \(words[$0]) \(words[$0 + 3])" }.joined(separator: "\n") + "\n\n"
            case 4: text += "> \(corpus.body(&generator).replacingOccurrences(of: "\n\n", with: "\n>\n> "))\n\n"
            case 5: text += "```swift\nlet \(words[0]) = \"\(words[1])\"\nprint(\(words[0]))\n```\n\n"
            default: text += "| \(words[0]) | \(words[1]) |\n| --- | ---: |\n| \(words[2]) | \(words[3]) |\n| \(words[4]) | 1.5 |\n\n"
            }
            section += 1
        }
        return text
    }
}
