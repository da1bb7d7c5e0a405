import Logging

extension Logger {
    /// The logger of the test servers: warnings and errors only, so that a test run's output
    /// is not a line per request (the server's `info` log).
    public static var testServer: Logger {
        var logger = Logger(label: "notetaker-server-test")
        logger.logLevel = .warning
        return logger
    }
}
