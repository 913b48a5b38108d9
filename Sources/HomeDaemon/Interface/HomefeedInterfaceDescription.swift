/// The `io.homefeed` interface definition, served by `GetInterfaceDescription`.
///
/// The same text as `docs/io.homefeed.varlink` (a test keeps them equal).
enum HomefeedInterfaceDescription {
    static let text = """
        # homefeed: the home-screen layout manifest service.
        # Socket: /run/homefeed/homefeed.sock, passed in by systemd's homefeed.socket; without
        # systemd: --socket PATH, else $RUNTIME_DIRECTORY/homefeed.sock, else that default.
        # Refresh, RecordHistory, Reload, CheckStore, ReportSizes and ClearSizes need the mutating
        # right: root, the daemon's user, or the client group among the caller's own groups
        # (otherwise org.varlink.service.PermissionDenied). Connections and subscriptions are limited
        # in all and per uid, with slots kept for callers with the mutating right; a client beyond a
        # limit is closed at once, a subscription beyond one gets TooManySubscriptions and is closed.
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
          lastError: ?string,
          # Warnings of the last document parsed: what the parser recovered from or left out.
          warnings: int
        )

        # What changed since the manifest sent before on this connection, by element id:
        # inserted (new ids), deleted (ids gone), moved (same id, new frame), updated (same id,
        # new content). An id can be both moved and updated.
        type ManifestChanges (
          since: int,
          inserted: []string,
          deleted: []string,
          moved: []string,
          updated: []string
        )

        # The size a client measured for one element of its manifest: id is the element's id
        # (an item's id, header:SECTION, footer:SECTION, badge:KIND:ITEM, ...), width and/or
        # height in points.
        type ReportedSize (id: string, width: ?float, height: ?float)

        # A measured size kept for a target: profile:NAME or container:WxH@S.
        type StoredSize (target: string, id: string, width: ?float, height: ?float, reportedAt: string)

        # Images (docs/images.md): originals and renditions in the cache, their bytes, and the
        # last error of each image URL or service page that has one, newest first (at most 50).
        type ImageStatus (
          originals: int,
          renditions: int,
          cacheBytes: int,
          errors: []ImageError
        )

        type ImageError (url: string, error: string)

        # Returns the manifest laid out for one container: a named profile from the
        # configuration, or an explicit width/height/scale. Profiles are precomputed on
        # every change; any other container is computed on first use and cached.
        # With "more": true this is a subscription: the current manifest first, then one
        # reply per new version, each with "continues": true. Close the connection to end it.
        # With "changes": true as well, each reply after the first carries changes since
        # the previous one (null when they cannot be computed: redraw everything).
        # If ifNoneMatch equals the current etag, manifest is omitted.
        method GetManifest(
          profile: ?string,
          width: ?float,
          height: ?float,
          scale: ?float,
          ifNoneMatch: ?string,
          changes: ?bool
        ) -> (version: int, etag: string, container: Container, manifest: ?object, changes: ?ManifestChanges)

        # Daemon health and per-source state. Answers even when the store cannot be read (the
        # counts are then the last ones read). store: ok; recovered (the file was corrupt at
        # start, was moved aside and a fresh store is filled again); failing (store operations
        # keep failing: the watchdog pings stop, so systemd restarts the daemon). storeReason
        # says why when store is not ok. stale says why the version served is not the content's:
        # the last version tried failed (the store could not take it, say, or the layout cannot
        # lay out the content); the text STATUS= gives after "stale:", absent while it is current.
        method GetStatus() -> (
          version: int,
          startedAt: string,
          notices: int,
          serviceLinks: int,
          history: int,
          subscribers: int,
          sources: []SourceStatus,
          store: (ok, recovered, failing),
          storeReason: ?string,
          stale: ?string,
          images: ?ImageStatus
        )

        # Fetches one source (or all) now and returns when done. Fails with StoreUnavailable
        # when a fetched document or a source's state could not be stored.
        method Refresh(url: ?string) -> (attempted: int, changed: int, version: int)

        # Records a user-history event (something the user opened or did). title and kind
        # are folded as feed text is: each run of white space, line and paragraph breaks
        # included, becomes one space, none at either end; then title is 1 to 1024 bytes
        # and kind 1 to 64 (InvalidArgument otherwise). at is when, now by default. While
        # the history holds history-limit events, an at older than every one of them is
        # refused (InvalidArgument for at, also when at was left out and the clock is
        # behind every kept event): the event would be trimmed at once. The id is the
        # event's alone in this store: no earlier event had it, even one trimmed since
        # (one trimmed before the store's 8-history-ids migration may have had it).
        method RecordHistory(title: string, link: ?string, kind: ?string, at: ?string) -> (id: int, version: int)

        # Most recent notices, newest first.
        method ListNotices(limit: ?int, source: ?string) -> (notices: []object)

        # Re-reads the configuration, sources and layout (same as SIGHUP). A configuration
        # that does not validate, or whose layout cannot lay out the content stored now at one of
        # its profiles, fails (InvalidLayout, InvalidArgument) and the running one stays.
        # Once applied, version is the one being served: the new configuration's first version
        # when it was stored, else the previous one while it is tried again.
        method Reload() -> (version: int)

        # Runs SQLite's integrity_check on the store (every page and index; reads the whole
        # file). ok is false and problems lists SQLite's findings when the file is damaged.
        method CheckStore() -> (ok: bool, problems: []string)

        # Records sizes a client measured (self-sizing) for elements of the manifest of a
        # profile or container (chosen as in GetManifest). Each applies to the element's
        # estimated axes, in this and every later version, until the element's content
        # changes or the profile's container does (its width, height, scale, insets,
        # direction or platform, at a reload or a restart); then it is forgotten and the
        # element is estimated again. A report that moves any frame makes a new version;
        # one that moves nothing returns the current version. ignored: ids not in the
        # current manifest, or whose element has none of the given axes estimated. At
        # most 1000 sizes.
        method ReportSizes(
          profile: ?string,
          width: ?float,
          height: ?float,
          scale: ?float,
          sizes: []ReportedSize
        ) -> (version: int, ignored: []string)

        # The measured sizes kept for a profile or container, or for all of them.
        method ListSizes(profile: ?string, width: ?float, height: ?float, scale: ?float) -> (sizes: []StoredSize)

        # Forgets the measured sizes of a profile or container, or all of them; when there
        # were any, a new version is laid out without them.
        method ClearSizes(profile: ?string, width: ?float, height: ?float, scale: ?float) -> (cleared: int, version: int)

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

        # A reported size no layout can use (not finite, not above 0, above 1000000), an id
        # reported twice or longer than 1024 bytes, or more than 1000 sizes: names the id.
        error InvalidSize (id: string, reason: string)
        """
}
