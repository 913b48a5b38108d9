/// Keeps a start whose length follows the data (SQLite's full `integrity_check` of a large store
/// on slow storage) from being killed by the unit's start timeout.
///
/// `EXTEND_TIMEOUT_USEC=` does not add to the timeout: it says the service will send `READY=1`
/// or another extension within that time, counted from the message (systemd.service(5)), so a
/// single one, however large, still ends a check that outlasts it, and the marker that asked for
/// the check makes every restart repeat it. This sends a short one at once and again every
/// ``period`` while the start-up step runs, and none once it has returned or thrown.
enum StartTimeoutExtension {
    /// What each message asks for, in seconds from when it is sent.
    static let grant = 60
    /// How often the request is sent again: a third of the grant, so one late or lost message
    /// does not end the start.
    static let period: Duration = .seconds(20)

    /// Runs `body`, calling `send` first and then every `period` until `body` has returned or
    /// thrown; `send` is never called after this returns.
    static func during<T, E: Error>(
        every period: Duration = period,
        send: @escaping @Sendable () -> Void,
        _ body: () async throws(E) -> T
    ) async throws(E) -> T {
        send()
        let resending = Task {
            while (try? await Task.sleep(for: period)) != nil, !Task.isCancelled { send() }
        }
        let result: Result<T, E>
        do throws(E) {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        resending.cancel()
        await resending.value
        return try result.get()
    }
}
