/// The `io.homefeed` interface definition, served by `GetInterfaceDescription`.
///
/// The same text as `docs/io.homefeed.varlink` (a test keeps them equal).
enum HomefeedInterfaceDescription {
    static let text = """
        # homefeed: the home-screen layout manifest service.
        # Socket: /run/homefeed/homefeed.sock, passed in by systemd's homefeed.socket; without
        # systemd: --socket PATH, else $RUNTIME_DIRECTORY/homefeed.sock, else that default.
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
        # If ifNoneMatch equals the current etag, manifest is omitted.
        method GetManifest(
          profile: ?string,
          width: ?float,
          height: ?float,
          scale: ?float,
          ifNoneMatch: ?string
        ) -> (version: int, etag: string, container: Container, manifest: ?object)

        # Daemon health and per-source state.
        method GetStatus() -> (
          version: int,
          startedAt: string,
          notices: int,
          serviceLinks: int,
          history: int,
          subscribers: int,
          sources: []SourceStatus,
          images: ?ImageStatus
        )

        # Fetches one source (or all) now and returns when done.
        method Refresh(url: ?string) -> (attempted: int, changed: int, version: int)

        # Records a user-history event (something the user opened or did).
        method RecordHistory(title: string, link: ?string, kind: ?string, at: ?string) -> (id: int, version: int)

        # Most recent notices, newest first.
        method ListNotices(limit: ?int, source: ?string) -> (notices: []object)

        # Re-reads the configuration, sources and layout (same as SIGHUP).
        method Reload() -> (version: int)

        error UnknownProfile (profile: string)
        error InvalidContainer (reason: string)
        error SourceNotFound (url: string)
        error InvalidLayout (path: string, reason: string)
        error InvalidArgument (parameter: string, reason: string)
        """
}
