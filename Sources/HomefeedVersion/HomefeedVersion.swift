/// HomefeedVersion: the release version of homefeed, written in this one place.
///
/// The fetcher's `User-Agent`, the daemon's `org.varlink.service.GetInfo` reply and the
/// `--version` of every executable read it, so they cannot disagree. `debian/changelog` and the
/// man pages' headers carry it too; `VersionTests` (IntegrationTests) fails when they drift.
/// Imports nothing.

/// The version of this homefeed release, as `debian/changelog` names it (`0.1.0`).
public let homefeedVersion = "0.1.0"
