import Dispatch
import Glibc
import Synchronization
public import ThumbnailProtocol

/// Runs batches of images through `homefeed-thumbnail`, one helper process per batch, off the
/// cooperative pool (a dispatch queue of its own: every helper call blocks).
///
/// A helper that crashes, breaks its limits or overruns the per-image timeout fails the image
/// in flight only: it is killed, and a fresh helper takes the rest of the batch. A helper that
/// cannot start (no hello within the timeout, a missing binary) fails the rest of the batch as
/// transient, without another start: each would cost the timeout again.
///
/// Cancelling the calling task (the daemon stopping) kills the running helper at once, even
/// one that has not said hello yet, and leaves the rest of the batch without results, so a stop
/// never waits for a decode or a start.
///
/// Sendable: immutable; the queue serialises the batches.
public struct ThumbnailRenderer: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var helperPath: String
        public var maxPixels: Int
        public var maxInputBytes: Int
        public var maxMemoryBytes: Int
        public var cpuSecondsPerImage: Int
        /// Wall seconds per image (and for the helper's start).
        public var timeout: Double
        /// libvips worker threads (0: libvips' default, one per core).
        public var threads: Int
        /// Images per helper (`batch-size`): the helper's whole CPU budget covers them all.
        public var batchSize: Int

        public init(
            helperPath: String,
            maxPixels: Int = 40_000_000,
            maxInputBytes: Int = 4 << 20,
            maxMemoryBytes: Int = 1 << 30,
            cpuSecondsPerImage: Int = 20,
            timeout: Double = 30,
            threads: Int = 0,
            batchSize: Int = 16
        ) {
            self.helperPath = helperPath
            self.maxPixels = maxPixels
            self.maxInputBytes = maxInputBytes
            self.maxMemoryBytes = maxMemoryBytes
            self.cpuSecondsPerImage = cpuSecondsPerImage
            self.timeout = timeout
            self.threads = threads
            self.batchSize = batchSize
        }

        var arguments: [String] {
            [
                "--max-pixels", String(maxPixels), "--max-input-bytes", String(maxInputBytes), "--max-memory",
                String(maxMemoryBytes), "--cpu-per-image", String(cpuSecondsPerImage),
                // The whole helper: every image of a batch at its full budget, and some (the
                // settings' ranges keep this far from overflowing: 3 600 s × 1 000 images).
                "--max-cpu", String(cpuSecondsPerImage * max(batchSize, 1) + 60), "--threads", String(threads),
            ]
        }
    }

    /// What one batch came to.
    public struct Outcome: Sendable {
        /// By request id: the response, or why the image failed (one line).
        public var results: [Int: Result<ThumbnailResponse, ImageFailure>] = [:]
        /// Helpers started (1, plus one per crash or timeout that left images to do).
        public var helpersStarted = 0
        /// The largest peak resident set of the batch's helpers, in KiB.
        public var helperPeakResidentKiB = 0
        /// False when a helper said its `setrlimit` calls failed.
        public var limitsApplied = true
    }

    /// Why one image got no rendition.
    public struct ImageFailure: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        /// True when the helper itself failed (could not start), not the image: try again later.
        public var isTransient: Bool

        public var description: String { reason }
    }

    public let configuration: Configuration
    private let queue = DispatchQueue(label: "homefeed.thumbnail")

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Renders `requests` in order and returns when all are done (or the task is cancelled).
    public func render(_ requests: [ThumbnailRequest]) async -> Outcome {
        let configuration = self.configuration
        let cancellation = Cancellation()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async {
                    continuation.resume(returning: Self.renderBlocking(requests, configuration, cancellation))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// Set by the cancelling task; the running helper's pid is killed then.
    ///
    /// Sendable: behind a `Mutex`.
    final class Cancellation: Sendable {
        private let state = Mutex<(isCancelled: Bool, pid: pid_t?)>((false, nil))

        var isCancelled: Bool { state.withLock { $0.isCancelled } }

        /// Kills under the lock: the helper's reap forgets the pid under it first
        /// (``ThumbnailHelperProcess/beforeReap``), so the pid is still this batch's child.
        func cancel() {
            state.withLock { state in
                state.isCancelled = true
                if let pid = state.pid { kill(pid, SIGKILL) }
            }
        }

        /// Records the running helper; false when already cancelled (the caller stops).
        func running(_ pid: pid_t?) -> Bool {
            state.withLock { state in
                state.pid = pid
                return !state.isCancelled
            }
        }
    }

    private static func renderBlocking(
        _ requests: [ThumbnailRequest],
        _ configuration: Configuration,
        _ cancellation: Cancellation
    ) -> Outcome {
        var outcome = Outcome()
        var helper: ThumbnailHelperProcess?
        func retire(_ process: ThumbnailHelperProcess?) {
            guard let process else { return }
            process.finish(timeout: 5)
            outcome.helperPeakResidentKiB = max(outcome.helperPeakResidentKiB, process.peakResidentKiB)
        }
        rendering: for (index, request) in requests.enumerated() {
            if cancellation.isCancelled { break rendering }
            if helper == nil {
                let start = ThumbnailHelperProcess.start(
                    path: configuration.helperPath,
                    arguments: configuration.arguments,
                    timeout: configuration.timeout
                ) { spawned in
                    // Forgotten before each reap, so a cancel never kills a reused pid.
                    spawned.beforeReap = { _ = cancellation.running(nil) }
                    // Known to a cancel from now on, before its hello: a stop kills it at once.
                    return cancellation.running(spawned.pid)
                }
                switch start {
                case .success(let started):
                    helper = started
                    outcome.helpersStarted += 1
                    outcome.limitsApplied = outcome.limitsApplied && started.hello.limitsApplied
                case .failure where cancellation.isCancelled:
                    break rendering
                case .failure(let failure):
                    // Not these images' fault, and a helper that did not start for this one would
                    // not for the next: the rest are tried again in a later pass.
                    let failed = ImageFailure(
                        reason: "the thumbnail helper cannot start: \(describe(failure))",
                        isTransient: true
                    )
                    for rest in requests[index...] { outcome.results[rest.id] = .failure(failed) }
                    break rendering
                }
            }
            guard let running = helper, !cancellation.isCancelled else { break rendering }
            switch running.render(request, timeout: configuration.timeout) {
            case .success(let response):
                outcome.results[request.id] = .success(response)
            case .failure where cancellation.isCancelled:
                // Killed by the cancel: no result for it or the rest.
                break rendering
            case .failure(.stopped(let how)):
                // Not the image's fault, and no fresh helper for the rest: the service is most
                // likely stopping. This image and the rest are tried again in a later pass.
                outcome.results[request.id] = .failure(
                    ImageFailure(reason: "the helper was \(how) before it answered", isTransient: true)
                )
                retire(running)
                helper = nil
                break rendering
            case .failure(let failure):
                let reason =
                    failure == .timedOut
                    ? "decoding took longer than \(Int(configuration.timeout)) s; the helper was killed"
                    : "the decoder failed on this image: \(describe(failure))"
                outcome.results[request.id] = .failure(ImageFailure(reason: reason, isTransient: false))
                running.kill()
                retire(running)
                helper = nil
            }
        }
        retire(helper)
        return outcome
    }

    private static func describe(_ failure: ThumbnailHelperProcess.Failure) -> String {
        switch failure {
        case .cannotStart(let reason): reason
        case .crashed(let how), .stopped(let how): "the helper \(how)"
        case .timedOut: "timed out"
        case .protocolError(let reason): reason
        }
    }
}
