public import FoundationEssentials

/// Store: homefeed's SQLite file. Schema and named migrations, sources and their fetch
/// state, notices with tombstones and retention, service links, user history, and the last
/// manifest per profile.
///
/// Imports `CSQLite` and Foundation (for `Date`) only: no network, no feed parsing. Values in
/// and out are plain `Sendable` structs; the daemon maps parsed feeds to ``NoticeInput`` and
/// ``ServiceLinkInput``.
///
/// Thread-safety: an actor. Its one SQLite connection is confined to the actor, and the
/// actor's executor is a private serial dispatch queue, so blocking SQLite calls never run on
/// the cooperative pool (swift-on-linux.md §5.3). Other processes (the `sqlite3` CLI) may read
/// the file at the same time: it is in WAL mode.
public actor Store {
    private let executor: QueueExecutor
    let database: Database
    /// The configuration the store was opened with.
    public nonisolated let configuration: StoreConfiguration
    /// The database file's path.
    public nonisolated let path: String
    /// Set when the file was corrupt at open and ``init(path:configuration:now:recoverIfCorrupt:fullCheck:stop:)``
    /// moved it aside and started a fresh one.
    public nonisolated let recovery: StoreRecovery?
    /// Set when the full check at open found only index entries that disagree with their
    /// tables and `REINDEX` mended them: `integrity_check`'s first finding and how many followed.
    public nonisolated let indexRepair: String?
    /// With ``indexRepair``: the rows deleted per table because they repeated the key of a
    /// UNIQUE index that was damaged and let them in (the row stored first kept, the rows that
    /// depend on a deleted one gone with it), so that `REINDEX` could rebuild it. Empty when
    /// none were.
    public nonisolated let removedDuplicates: [String: Int]
    /// Called every 1 000 entries during an ingest, inside its transaction. Tests only.
    var ingestProgressHook: (@Sendable (Int) -> Void)?
    /// When ``checkClock(now:)`` first found the clock behind, by this process's monotonic
    /// clock; nil while it is not.
    var clockBehindSince: ContinuousClock.Instant?
    /// How long a clock that stays behind is refused before it is taken as right
    /// (``checkClock(now:)``): a day of running. Tests shorten it.
    var clockTrustDelay: Duration = .seconds(86_400)

    /// The actor's executor: a private serial queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Opens the store at `path`, creating the file if missing, and brings its schema up to
    /// date. The work runs on the store's queue, never on the caller's thread.
    ///
    /// - Parameters:
    ///   - path: the database file; its directory must exist and be writable (WAL keeps
    ///     `-wal` and `-shm` files next to it).
    ///   - configuration: limits and timeouts.
    ///   - now: the time recorded for applied migrations and in a moved-aside file's name.
    ///   - recoverIfCorrupt: run `PRAGMA quick_check` first; if it fails, or SQLite reports
    ///     the file corrupt (`SQLITE_CORRUPT`, `SQLITE_NOTADB`) while opening it, move the file
    ///     aside to `<path>.corrupt-<UTC time>` and start a fresh one holding the manifests and
    ///     history still readable; ``recovery`` says what happened.
    ///   - stop: ends the opening early when requested from another thread (``StoreOpeningStop``):
    ///     the check that runs is interrupted and nothing after it is done.
    ///   - fullCheck: with `recoverIfCorrupt`, run `PRAGMA integrity_check` instead, which also
    ///     compares every index with its table (`quick_check` does not, so a damaged index,
    ///     `SQLITE_CORRUPT_INDEX` at a write, passes it) and reads the whole file. When its
    ///     only findings are index entries that disagree with their tables, `REINDEX` rebuilds
    ///     the indexes from the tables and the check runs again: clean, the file is kept with
    ///     every row (``indexRepair``), but for rows that repeat a unique key a damaged index let
    ///     in, deleted when `REINDEX` fails on them (``removedDuplicates``); any other finding
    ///     moves the file aside as above.
    /// - Throws: ``StoreError``: SQLite could not open the file, or it is corrupt and
    ///   `recoverIfCorrupt` is false; ``StoreError/Kind/newerDatabase(unknownMigrations:)``
    ///   when a newer homefeed wrote it (the file and its write-ahead log are left as found);
    ///   ``StoreError/Kind/foreignDatabase(applicationID:)`` when it belongs to another program.
    public init(
        path: String,
        configuration: StoreConfiguration = StoreConfiguration(),
        now: Date = Date(),
        recoverIfCorrupt: Bool = false,
        fullCheck: Bool = false,
        stop: StoreOpeningStop? = nil
    ) async throws(StoreError) {
        let executor = QueueExecutor(label: "homefeed.store")
        let appliedAt = SQLDate.seconds(now)
        let opened = try await executor.run { () throws(StoreError) -> StoreOpening.Opened in
            try StoreOpening.open(
                path: path,
                busyTimeout: configuration.busyTimeout,
                appliedAt: appliedAt,
                now: now,
                recoverIfCorrupt: recoverIfCorrupt,
                fullCheck: fullCheck,
                stop: stop
            )
        }
        self.executor = executor
        self.database = opened.database
        self.configuration = configuration
        self.path = path
        self.recovery = opened.recovery
        self.indexRepair = opened.indexRepair
        self.removedDuplicates = opened.removedDuplicates
    }

    /// Row counts of every table.
    public func counts() throws(StoreError) -> StoreCounts {
        var counts = StoreCounts()
        counts.sources = Int(try database.scalar("SELECT count(*) FROM sources"))
        counts.notices = Int(try database.scalar("SELECT count(*) FROM notices"))
        counts.tombstones = Int(try database.scalar("SELECT count(*) FROM notice_tombstones"))
        counts.serviceLinks = Int(try database.scalar("SELECT count(*) FROM service_links"))
        counts.historyEvents = Int(try database.scalar("SELECT count(*) FROM history"))
        counts.manifests = Int(try database.scalar("SELECT count(*) FROM manifests"))
        return counts
    }

    /// The migrations recorded in the file, oldest first.
    public func appliedMigrations() throws(StoreError) -> [String] {
        try Schema.migrator.appliedIdentifiers(database)
    }

    /// Runs `PRAGMA integrity_check` and returns its lines (`["ok"]` for a sound file): every
    /// page, every index entry against its table. Reads the whole file, so it takes as long.
    /// A page damaged badly enough makes SQLite fail the check itself with `SQLITE_CORRUPT`;
    /// that is returned as the one finding.
    ///
    /// - Parameter maxProblems: stop after this many findings (SQLite's own default is 100).
    /// - Throws: ``StoreError`` for anything but corruption (a lock, an I/O error).
    public func integrityCheck(maxProblems: Int = 100) throws(StoreError) -> [String] {
        try StoreOpening.check(database, "PRAGMA integrity_check(\(max(maxProblems, 1)))")
    }

    /// Runs `PRAGMA quick_check`: `integrity_check` without comparing indexes to their tables,
    /// so it is quicker; what the daemon runs at every start. Corruption is reported as for
    /// ``integrityCheck(maxProblems:)``.
    public func quickCheck() throws(StoreError) -> [String] {
        try StoreOpening.check(database, "PRAGMA quick_check")
    }

    /// Takes the write lock and reads the migration record in one transaction, which commits
    /// nothing: a cheap proof that the store can still be written to. Fails as a write would,
    /// e.g. with `SQLITE_BUSY` after the busy timeout while another process holds the lock.
    public func checkWritable() throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            _ = try database.scalar("SELECT count(*) FROM schema_migrations")
        }
    }

    /// Whether the actor's code runs on its own dispatch queue (not the cooperative pool).
    /// Tests only.
    package func _runsOnStoreQueue() -> Bool {
        QueueExecutor.isOnExecutorQueue
    }

    /// Shortens ``clockTrustDelay``. Tests only.
    package func _setClockTrustDelay(_ delay: Duration) {
        clockTrustDelay = delay
    }

    /// Installs a hook called every 1 000 entries inside an ingest's transaction. Tests only
    /// (the crash test stops the process there).
    package func _setIngestProgressHook(_ hook: (@Sendable (Int) -> Void)?) {
        ingestProgressHook = hook
    }
}
