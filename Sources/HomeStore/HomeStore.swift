public import Foundation

/// HomeStore: homefeed's SQLite file. Schema and named migrations, sources and their fetch
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
public actor HomeStore {
    private let executor: QueueExecutor
    let database: Database
    /// The configuration the store was opened with.
    public nonisolated let configuration: StoreConfiguration
    /// The database file's path.
    public nonisolated let path: String
    /// Called every 1 000 entries during an ingest, inside its transaction. Tests only.
    var ingestProgressHook: (@Sendable (Int) -> Void)?

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
    ///   - now: the time recorded for applied migrations.
    /// - Throws: ``StoreError``: SQLite could not open the file;
    ///   ``StoreError/Kind/newerDatabase(unknownMigrations:)`` when a newer homefeed wrote it
    ///   (the file is left unmodified); ``StoreError/Kind/foreignDatabase(applicationID:)``
    ///   when it belongs to another program.
    public init(path: String, configuration: StoreConfiguration = StoreConfiguration(), now: Date = Date())
        async throws(StoreError)
    {
        let executor = QueueExecutor(label: "homefeed.store")
        let appliedAt = SQLDate.seconds(now)
        let database = try await executor.run { () throws(StoreError) -> Database in
            let db = try Database(path: path, busyTimeout: configuration.busyTimeout)
            // Refuse before the journal-mode switch: a refused file is never written to.
            try Schema.migrator.check(db)
            try db.enableWAL()
            try Schema.migrator.migrate(db, appliedAt: appliedAt)
            return db
        }
        self.executor = executor
        self.database = database
        self.configuration = configuration
        self.path = path
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

    /// Runs `PRAGMA integrity_check` and returns its lines (`["ok"]` for a sound file).
    public func integrityCheck() throws(StoreError) -> [String] {
        try database.fetchAll("PRAGMA integrity_check") { $0.column(0, or: "") }
    }

    /// Whether the actor's code runs on its own dispatch queue (not the cooperative pool).
    /// Tests only.
    package func _runsOnStoreQueue() -> Bool {
        QueueExecutor.isOnExecutorQueue
    }

    /// Installs a hook called every 1 000 entries inside an ingest's transaction. Tests only
    /// (the crash test stops the process there).
    package func _setIngestProgressHook(_ hook: (@Sendable (Int) -> Void)?) {
        ingestProgressHook = hook
    }
}
