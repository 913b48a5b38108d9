import Dispatch
import Glibc

/// SIGTERM, SIGINT and SIGHUP as an async sequence, through Dispatch signal sources.
///
/// The signals are ignored first (swift-on-linux.md §8), so one that arrives before the source
/// exists cannot kill the process. The sources live until the stream ends.
public enum SignalEvents {
    public static func stream() -> AsyncStream<Int32> {
        AsyncStream { continuation in
            let queue = DispatchQueue(label: "homefeed.signals")
            var sources: [any DispatchSourceSignal] = []
            for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { @Sendable in continuation.yield(signalNumber) }
                source.resume()
                sources.append(source)
            }
            nonisolated(unsafe) let keep = sources
            continuation.onTermination = { @Sendable _ in
                for source in keep { source.cancel() }
            }
        }
    }
}
