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
    /// A clock still behind after ``clockTrustDelay`` of this process's run (a day) is taken as
    /// right: the store's latest time is then the wrong one, recorded under a clock that was
    /// once far ahead, and refusing until the real time reaches it would stop storing for years.
    ///
    /// - Throws: ``StoreError/Kind/clockBehind(now:latest:)``.
    func checkClock(now: Int64) throws(StoreError) {
        let latest = try database.fetchOne("SELECT max(sort_at) FROM notices") { $0.column(0, as: Int64.self) }
        guard let latest = latest ?? nil, now < latest - Self.clockTolerance else {
            clockBehindSince = nil
            return
        }
        let since = clockBehindSince ?? ContinuousClock.now
        clockBehindSince = since
        if ContinuousClock.now - since >= clockTrustDelay { return }
        let format = Date.ISO8601FormatStyle()
        let clock = Date(timeIntervalSince1970: Double(now))
        let recorded = Date(timeIntervalSince1970: Double(latest))
        throw StoreError(
            kind: .clockBehind(now: clock, latest: recorded),
            message: "the clock (\(format.format(clock))) is more than a day behind the latest time the store "
                + "recorded (\(format.format(recorded))): nothing is stored or pruned until it is right, or for "
                + "at most a day of running"
        )
    }
}
