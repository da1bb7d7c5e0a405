import Foundation
import Logging
import NoteTakerSyncProtocol

/// The sync server's operations for one authenticated account, below HTTP: the routes call
/// these, and so do in-process tests. Every record and asset operation is scoped by the
/// ``StoredAccount`` that authentication produced, never by an id from the request.
public struct SyncService: Sendable {
    /// Where accounts, records and asset ownership live.
    public let storage: any SyncStorage
    /// Tells connected devices that changes exist.
    public let notifier: ChangeNotifier
    /// What the server counts, for `/metrics`.
    public let metrics = ServerMetrics()
    /// Whether the storage works, so that its failures are logged when they begin and end.
    public let condition = StorageCondition()
    /// Where the storage's failures are logged.
    let logger = Logger(label: "notetaker-server.storage")
    /// The most bytes (records and assets) one account may use.
    public let quotaBytes: Int64
    /// Whether anyone may create an account (otherwise only ``addAccount(_:)`` on the
    /// server's machine does).
    public let registrationOpen: Bool
    /// Whether registering takes only end-to-end encrypted accounts (`--require-encryption`):
    /// one without key material is refused, and its password is never kept.
    public let requiresEncryption: Bool
    /// Where attachment files' bytes live.
    let assets: any AssetStore
    /// Carries events to the other server processes on the same storage, if there are any.
    let broadcast: (any ChangeBroadcast)?
    let hasher: PasswordHasher
    /// Failed log-ins: in memory, or in the database when several nodes share it.
    let throttle: any LoginAttempts
    /// Password hashing, one or two at a time.
    let hashing = WorkLimiter(limit: max(1, ProcessInfo.processInfo.activeProcessorCount / 2))
    /// How long sessions live.
    let sessionLifetime: SessionLifetime
    /// How long deleted records' tombstones are kept at least.
    let tombstoneRetention: TombstoneRetention
    /// A hash no password matches, checked for a name no account has, so that a log-in for an
    /// unknown name costs the same time as a wrong password (the time tells no one which
    /// names exist).
    let decoyHash: String

    /// Creates the service over a storage, where asset files go, and (for a storage several
    /// processes share) a broadcast of events between them.
    public init(
        storage: any SyncStorage, assets: any AssetStore, broadcast: (any ChangeBroadcast)? = nil,
        quotaBytes: Int64, hasher: PasswordHasher = .standard, registrationOpen: Bool = true, requiresEncryption: Bool = false,
        sessionLifetime: SessionLifetime = .standard, tombstoneRetention: TombstoneRetention = .standard
    ) {
        self.init(
            storage: storage, assets: assets, broadcast: broadcast, throttle: LoginThrottle(),
            quotaBytes: quotaBytes, hasher: hasher, registrationOpen: registrationOpen, requiresEncryption: requiresEncryption,
            sessionLifetime: sessionLifetime, tombstoneRetention: tombstoneRetention)
    }

    init(
        storage: any SyncStorage, assets: any AssetStore, broadcast: (any ChangeBroadcast)?, throttle: any LoginAttempts,
        quotaBytes: Int64, hasher: PasswordHasher, registrationOpen: Bool, requiresEncryption: Bool, sessionLifetime: SessionLifetime,
        tombstoneRetention: TombstoneRetention
    ) {
        self.throttle = throttle
        self.sessionLifetime = sessionLifetime
        self.tombstoneRetention = tombstoneRetention
        self.storage = storage
        self.notifier = ChangeNotifier()
        self.quotaBytes = quotaBytes
        self.registrationOpen = registrationOpen
        self.requiresEncryption = requiresEncryption
        self.assets = assets
        self.broadcast = broadcast
        self.hasher = hasher
        self.decoyHash = (try? hasher.hash(SessionToken.make())) ?? ""
    }

    /// The health answer: the storage's server id, and the most changes this server takes
    /// in one batch.
    public var health: HealthResponse {
        HealthResponse(status: "ok", apiVersion: SyncAPI.version, serverId: storage.serverId, maxBatchSize: SyncLimits.maxBatchSize,
                       version: NoteTakerVersion.current, database: "ok")
    }

    /// The health answer after reading the storage once: ``health`` when it answers, else
    /// `unavailable` with what is wrong (the route answers it with 503, so that a load
    /// balancer or a monitor sees it).
    public func checkedHealth() async -> HealthResponse {
        var answer = health
        do {
            try await storing { try await storage.check() }
        } catch {
            answer.status = "unavailable"
            answer.message = error.message
            switch condition.failure {
            case .unreachable?: answer.database = "unreachable"
            case .full?: answer.database = "full"
            default: answer.database = "failing"
            }
        }
        return answer
    }

    // MARK: Accounts

    /// Creates an account and logs it in, when registration is open.
    public func register(_ credentials: Credentials) async throws(SyncServerError) -> SessionResponse {
        guard registrationOpen else {
            throw SyncServerError(.registrationClosed, "This server does not take new accounts. Ask its administrator to create one for you.")
        }
        guard credentials.keys != nil || !requiresEncryption else {
            throw SyncServerError(.registrationClosed, "This server takes only end-to-end encrypted accounts: register again with encryption (not --unencrypted). Nothing was kept.")
        }
        let deviceName = try Self.validate(deviceName: credentials.deviceName)
        let account = try await addAccount(credentials)
        return try await storing { try await startSession(for: account, deviceName: deviceName) }
    }

    /// Creates an account, open registration or not (`notetaker-server account add`).
    public func addAccount(_ credentials: Credentials) async throws(SyncServerError) -> StoredAccount {
        try Self.validate(username: credentials.username)
        try Self.validate(password: credentials.password)
        let keys = try Self.stored(credentials.keys)
        if let secret = credentials.recoverySecret, !RecoverySetup.isSecret(secret) {
            throw .badRequest("A recovery secret is 32 bytes in base64url. Nothing was changed.")
        }
        // A recovery secret opens an account's key material: without any, there is nothing to keep it for.
        let recoverySecret = keys == nil ? nil : credentials.recoverySecret
        return try await storing {
            let hash = try await hashing.run { try hasher.hash(credentials.password) }
            let account = try await storage.createAccount(username: credentials.username, passwordHash: hash, keys: keys)
            if let secret = recoverySecret {
                try await storage.setRecoveryHash(try await hashing.run { try hasher.hash(secret) }, account: account.id)
            }
            return account
        }
    }

    /// Logs in; repeated failures for a name from an address, or from an address for any
    /// names, must wait longer and longer (see ``LoginThrottle`` for the rule).
    ///
    /// A name or password that no account could have is refused before anything remembers
    /// it, and an unknown name takes as long to refuse as a wrong password.
    public func login(_ credentials: Credentials, from address: String = "local") async throws(SyncServerError) -> SessionResponse {
        try Self.validate(username: credentials.username)
        let deviceName = try Self.validate(deviceName: credentials.deviceName)
        guard credentials.password.utf8.count <= Self.maximumPasswordBytes else { throw .wrongCredentials }
        try await beginAttempt(username: credentials.username, address: address)
        let account = try await storing { try await storage.account(named: credentials.username) }
        let matches = try await verify(credentials.password, against: account?.passwordHash ?? decoyHash)
        guard let account, matches else { throw .wrongCredentials }
        try await storing { try await throttle.succeeded(username: credentials.username, address: address, now: Date()) }
        if hasher.needsUpgrade(account.passwordHash) {
            // Made at an older, lower cost: made again now that the password is at hand.
            try await storing {
                try await storage.setPasswordHash(try await hashing.run { try hasher.hash(credentials.password) }, keys: nil, account: account.id)
            }
        }
        return try await storing { try await startSession(for: account, deviceName: deviceName) }
    }

    /// Counts a password attempt for a name from an address, or refuses it while they must wait.
    func beginAttempt(username: String, address: String) async throws(SyncServerError) {
        if let wait = try await storing({ try await throttle.begin(username: username, address: address, now: Date()) }) {
            throw SyncServerError(.tooManyRequests, "Too many failed password attempts for '\(username)'. Try again in \(wait) seconds.", retryAfter: wait)
        }
    }

    /// Checks a password against its hash, waiting for a turn to hash.
    func verify(_ password: String, against hash: String) async throws(SyncServerError) -> Bool {
        try await storing { try await hashing.run { hasher.verify(password, against: hash) } }
    }

    /// The account a bearer token belongs to, while its session lives (``SessionLifetime``):
    /// an expired session is ended, and its streams with it.
    public func authenticate(token: String) async throws(SyncServerError) -> StoredAccount {
        let hash = SessionToken.hash(token)
        guard let session = try await storing({ try await storage.session(hash: hash) }) else { throw .notLoggedIn }
        let now = Date().timeIntervalSince1970
        switch sessionLifetime.judge(createdAt: session.createdAt, lastUsedAt: session.lastUsedAt, now: now) {
        case .expired(let reason):
            try await storing { try await storage.removeSession(tokenHash: hash) }
            await announce(.sessionEnded(tokenHash: hash))
            throw SyncServerError(.sessionEnded, reason)
        case .live(let touch):
            if touch { try await storing { try await storage.touchSession(tokenHash: hash, at: now) } }
            return session.account
        }
    }

    /// Ends the session of `token`.
    public func logout(token: String) async throws(SyncServerError) {
        try await storing { try await storage.removeSession(tokenHash: SessionToken.hash(token)) }
        await announce(.sessionEnded(tokenHash: SessionToken.hash(token)))
    }

    /// Changes the password; every other session of the account ends. Wrong current
    /// passwords are throttled as failed log-ins are (a stolen session cannot guess it fast).
    public func changePassword(
        _ change: PasswordChange, account: StoredAccount, token: String, from address: String = "local"
    ) async throws(SyncServerError) {
        guard change.currentPassword.utf8.count <= Self.maximumPasswordBytes else {
            throw SyncServerError(.unauthorized, "The current password is wrong; the password was not changed.")
        }
        try await beginAttempt(username: account.username, address: address)
        guard try await verify(change.currentPassword, against: account.passwordHash) else {
            throw SyncServerError(.unauthorized, "The current password is wrong; the password was not changed.")
        }
        try await storing { try await throttle.succeeded(username: account.username, address: address, now: Date()) }
        try Self.validate(password: change.newPassword)
        let keys = try Self.stored(change.keys)
        let encrypted = try await storing({ try await storage.keys(account: account.id) }) != nil
        if keys == nil, encrypted {
            throw .badRequest("This account is end-to-end encrypted: a new password comes with its key material (keys). Nothing was changed.")
        }
        // Keys given to an account without them encrypt it: from then on it takes only sealed
        // saves, and a device converting it sends its records again sealed, then asks the
        // server to drop what it still holds in plain text (dropPlaintext).
        try await storing {
            try await storage.setPasswordHash(try await hashing.run { try hasher.hash(change.newPassword) }, keys: keys, account: account.id)
            try await storage.removeSessions(account: account.id, except: SessionToken.hash(token))
        }
        await announce(.sessionsEnded(account: account.id, keeping: SessionToken.hash(token)))
    }

    /// The account's usage and quota, and for an encrypted account how many of its records
    /// are not sealed yet.
    public func status(of account: StoredAccount) async throws(SyncServerError) -> AccountStatus {
        let usage = try await storing { try await storage.usage(account: account.id) }
        let unsealed = account.encrypted ? try await storing { try await storage.unsealedRecordCount(account: account.id, unkeyedTags: true) } : nil
        return AccountStatus(username: account.username, recordCount: usage.records, usedBytes: usage.bytes, quotaBytes: quota(of: account),
                             unsealedRecords: unsealed)
    }

    private func startSession(for account: StoredAccount, deviceName: String?) async throws -> SessionResponse {
        let token = SessionToken.make()
        try await storage.addSession(tokenHash: SessionToken.hash(token), account: account.id, deviceName: deviceName)
        return SessionResponse(username: account.username, token: token)
    }

    static func validate(username: String) throws(SyncServerError) {
        guard UserName.isValid(username) else { throw .badRequest(UserName.rule) }
    }

    /// The longest password, in bytes.
    static let maximumPasswordBytes = 1024

    static func validate(password: String) throws(SyncServerError) {
        guard password.count >= SyncLimits.minimumPasswordLength, password.utf8.count <= maximumPasswordBytes else {
            throw .badRequest("A password is at least \(SyncLimits.minimumPasswordLength) characters (and at most 1024 bytes).")
        }
    }

    /// Tells the push streams of every process on the storage about an event (this
    /// process's directly when there is no broadcast, or the broadcast fails; a session's
    /// end, directly always).
    func announce(_ event: ServerEvent) async {
        // A session's end takes effect on this node at once, not when the broadcast comes back:
        // a notification this node's listener misses (connecting, or connecting again) would
        // leave the session's streams open. Ending a stream twice does nothing.
        let endsSessions = if case .changed = event { false } else { true }
        if endsSessions { await notifier.apply(event) }
        if let broadcast, (try? await broadcast.publish(event)) != nil { return }
        if !endsSessions { await notifier.apply(event) }
    }

    /// Tells every listening device of this process the newest change of its account: what
    /// a node does after (re)connecting to the broadcast, whose events meanwhile are lost.
    func refreshListeners() async {
        for account in await notifier.listeningAccounts {
            if let latest = try? await storage.latestSequence(account: account),
               let token = try? await changeToken(latest, account: account) {
                await notifier.notify(account: account, token: token)
            }
        }
    }

    /// Runs a storage call, turning its failures into ``SyncServerError``s: the database out of
    /// reach answers 503, a full disk 507, each logged once when it begins and once when it ends.
    func storing<T>(_ body: () async throws -> T) async throws(SyncServerError) -> T {
        do {
            let result = try await metrics.storage(body)
            log(condition.succeeded())
            return result
        } catch let error as SyncServerError {
            throw error
        } catch {
            let failure = StorageFailure.classify(error)
            log(condition.failed(failure))
            throw failure.answer
        }
    }

    /// Logs what the storage's condition says changed.
    private func log(_ report: StorageCondition.Report) {
        switch report {
        case .none:
            break
        case .began(.unreachable(let reason)):
            logger.error("The database cannot be reached (\(reason)); devices are told so until it is back.")
        case .began(.full(let reason)):
            logger.error("The storage is full (\(reason)); nothing more can be stored until room is made.")
        case .began(.other(let reason)):
            logger.error("A storage operation failed: \(reason)")
        case .ended(let calls):
            logger.notice("The storage works again, after \(calls) failed operation\(calls == 1 ? "" : "s").")
        }
    }
}
