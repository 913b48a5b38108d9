import FoundationEssentials

extension Store {
    /// How far the clock may be behind the latest time the store recorded before a write that
    /// would date rows by it is refused (seconds): a day, as ``futureDateTolerance``. A clock
    /// that boots from a real-time clock kept in local time, and a time zone set late, are off
    /// by hours; one further behind is a device without a battery-backed clock, before NTP.
    static let clockTolerance: Int64 = 86_400

    /// Refuses a write dated `now` when the clock is more than ``clockTolerance`` behind the
    /// latest `sort_at` of every notice, the newest time the store holds that the clock had
    /// reached (`sort_at` is never after a sighting): ordered and pruned by a clock that was
    /// behind, the entries of a source at its count limit would sort below every one it
    /// holds and be tombstoned for good in the same ingest. One probe of `notices_by_time`.
    ///
    /// The clock is taken as right, and the store's latest time as the wrong one (recorded
    /// under a clock that was once far ahead: an undated notice first seen then), when no
    /// stored notice is dated more than a day after the clock (the dates come from the feeds'
    /// servers, so such a date says the clock is behind), and
    /// - `dates`, the entries of the document being stored, confirm it: one of them is within
    ///   a day of `now` and none is more than a day after it. A clock in 2000 is never within
    ///   a day of a live feed's newest entry; a right clock is, for any feed that published
    ///   in the last day;
    /// - or it has stayed behind for ``clockTrustDelay`` of this process's run (a day), for
    ///   the feeds that never confirm it (undated, or quiet) and the retention pass.
    ///
    /// The sightings after `now` (of notices and tombstones) are then moved back to `now` in the
    /// same transaction, so the store's latest time is no later than the clock from then on,
    /// across restarts too, and a source at its count limit does not tombstone its new entries
    /// below them.
    ///
    /// - Throws: ``StoreError/Kind/clockBehind(now:latest:)``.
    func checkClock(now: Int64, dates: [Date?] = []) throws(StoreError) {
        let latest = try database.fetchOne("SELECT max(sort_at) FROM notices") { $0.column(0, as: Int64.self) }
        guard let latest = latest ?? nil, now < latest - Self.clockTolerance else {
            clockBehindSince = nil
            return
        }
        let since = clockBehindSince ?? ContinuousClock.now
        clockBehindSince = since
        let dated = dates.compactMap { $0.map(SQLDate.seconds) }
        let confirmed =
            dated.contains { abs($0 - now) <= Self.clockTolerance }
            && !dated.contains { $0 > now + Self.clockTolerance }
        // The notices' own dates come from their feeds' servers: one more than a day after the
        // clock says the clock is behind, whatever a feed with the same wrong clock (a server
        // on the LAN) or a day of running says. Only read on this rare path (a scan).
        let storedDate = try database.fetchOne("SELECT max(published_at) FROM notices") {
            $0.column(0, as: Int64.self)
        }
        let contradicted = (storedDate ?? nil).map { $0 > now + Self.clockTolerance } ?? false
        if !contradicted, confirmed || ContinuousClock.now - since >= clockTrustDelay {
            try database.execute(
                """
                UPDATE notices SET first_seen_at = min(first_seen_at, ?1), last_seen_at = min(last_seen_at, ?1)
                WHERE first_seen_at > ?1 OR last_seen_at > ?1
                """,
                [now]
            )
            try database.execute(
                "UPDATE notice_tombstones SET last_seen_at = ?1 WHERE last_seen_at > ?1",
                [now]
            )
            clockBehindSince = nil
            return
        }
        let format = Date.ISO8601FormatStyle()
        let clock = Date(timeIntervalSince1970: Double(now))
        let recorded = Date(timeIntervalSince1970: Double(latest))
        throw StoreError(
            kind: .clockBehind(now: clock, latest: recorded),
            message: "the clock (\(format.format(clock))) is more than a day behind the latest time the store "
                + "recorded (\(format.format(recorded))): nothing is stored or pruned until it is right, a "
                + "stored feed confirms it, or for at most a day of running"
        )
    }
}
