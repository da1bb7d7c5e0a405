import ArgumentParser
import Logging
import NoteTakerServer

/// How the server logs: the lowest level written, and lines of text or of JSON, all to
/// standard error (journald and container runtimes collect it).
struct LogOptions: ParsableArguments {
    /// The form of each line.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(name: .customLong("log-level"), help: "The lowest level logged: trace, debug, info (the default: a line per request, failed log-ins, start and stop), notice, warning, error or critical.")
    var level: Logger.Level?
    @Option(name: .customLong("log-format"), help: "text (the default) or json (one object per line: time, level, logger, message and the fields).")
    var format: Format?

    /// Sets up the process's logging; called once, before anything logs.
    func bootstrap(_ settings: ServerSettings) throws {
        let level = try settings.resolve(level, "log-level", default: .info)
        let format = try settings.resolve(format, "log-format", default: .text)
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            case .json:
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
