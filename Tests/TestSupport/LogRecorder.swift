import Synchronization

/// An in-memory log sink: pass `sink` where a logger takes one (HomeDaemon's `Logger`, the
/// scheduler's log closure) and read `lines` afterwards (swift-log's test-sink shape).
///
/// Sendable: the lines sit behind a `Mutex`.
public final class LogRecorder: Sendable {
    private let recorded = Mutex<[String]>([])

    public init() {}

    /// Appends one line.
    public var sink: @Sendable (String) -> Void { { [self] line in recorded.withLock { $0.append(line) } } }

    /// Every line so far, in order.
    public var lines: [String] { recorded.withLock { $0 } }
}
