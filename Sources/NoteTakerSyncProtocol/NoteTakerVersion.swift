/// The version of this build of NoteTaker: the same for the app, the command line and the
/// sync server, printed by `--version` and announced in the server's health answer, so that an
/// operator can tell which build each node and device runs. Raised with each release.
public enum NoteTakerVersion {
    /// The version, as `MAJOR.MINOR.PATCH`.
    public static let current = "0.9.0"
}
