/// The `io.homefeed` interface definition, served by `GetInterfaceDescription`.
///
/// The same text as `docs/io.homefeed.varlink` (a test keeps them equal).
enum HomefeedInterfaceDescription {
    static let text = """
        # homefeed: the home-screen layout manifest service.
        # Socket: /run/homefeed/homefeed.sock, passed in by systemd's homefeed.socket; without
        # systemd: --socket PATH, else $RUNTIME_DIRECTORY/homefeed.sock, else that default.
        # Refresh, RecordHistory, Reload and CheckStore need the mutating right: root, the daemon's
        # user, or the client group among the caller's own groups (otherwise
        # org.varlink.service.PermissionDenied). Connections and subscriptions are limited in all and
        # per uid, with slots kept for callers with the mutating right; a client beyond a limit is
        # closed at once, a subscription beyond one gets TooManySubscriptions and is closed.
        interface io.homefeed

        # A screen to lay out for. width/height in points; scale is the display scale
        # (1, 2, 3; 0 = no pixel rounding).
        type Container (width: float, height: float, scale: float)

        type SourceStatus (
          url: string,
          kind: string,
          title: ?string,
          entries: int,
          lastAttempt: ?string,
          lastSuccess: ?string,
          nextAttempt: ?string,
          failures: int,
          lastError: ?string
        )

        # Returns the manifest laid out for one container: a named profile from the
        # configuration, or an explicit width/height/scale. Profiles are precomputed on
        # every change; any other container is computed on first use and cached.
        # With "more": true this is a subscription: the current manifest first, then one
        # reply per new version, each with "continues": true. Close the connection to end it.
        # If ifNoneMatch equals the current etag, manifest is omitted.
        method GetManifest(
          profile: ?string,
          width: ?float,
          height: ?float,
          scale: ?float,
          ifNoneMatch: ?string
        ) -> (version: int, etag: string, container: Container, manifest: ?object)

        # Daemon health and per-source state. Answers even when the store cannot be read (the
        # counts are then the last ones read). store: ok; recovered (the file was corrupt at
        # start, was moved aside and a fresh store is filled again); failing (store operations
        # keep failing: the watchdog pings stop, so systemd restarts the daemon). storeReason
        # says why when store is not ok.
        method GetStatus() -> (
          version: int,
          startedAt: string,
          notices: int,
          serviceLinks: int,
          history: int,
          subscribers: int,
          sources: []SourceStatus,
          store: (ok, recovered, failing),
          storeReason: ?string
        )

        # Fetches one source (or all) now and returns when done. Fails with StoreUnavailable
        # when a fetched document or a source's state could not be stored.
        method Refresh(url: ?string) -> (attempted: int, changed: int, version: int)

        # Records a user-history event (something the user opened or did).
        method RecordHistory(title: string, link: ?string, kind: ?string, at: ?string) -> (id: int, version: int)

        # Most recent notices, newest first.
        method ListNotices(limit: ?int, source: ?string) -> (notices: []object)

        # Re-reads the configuration, sources and layout (same as SIGHUP).
        method Reload() -> (version: int)

        # Runs SQLite's integrity_check on the store (every page and index; reads the whole
        # file). ok is false and problems lists SQLite's findings when the file is damaged.
        method CheckStore() -> (ok: bool, problems: []string)

        error UnknownProfile (profile: string)
        error InvalidContainer (reason: string)
        error SourceNotFound (url: string)
        error InvalidLayout (path: string, reason: string)
        error InvalidArgument (parameter: string, reason: string)
        # The store could not carry out the call: locked by another process past the busy
        # timeout, corrupt, full or read-only. reason names the SQLite condition, e.g.
        # "SQLITE_BUSY (5): database is locked"; the daemon's log has the details.
        error StoreUnavailable (reason: string)
        # Anything else that failed inside the daemon; the daemon's log has the cause.
        error InternalError (reason: string)
        # A GetManifest subscription beyond max-subscriptions or max-subscriptions-per-uid; the
        # connection is closed after this reply.
        error TooManySubscriptions ()
        """
}
