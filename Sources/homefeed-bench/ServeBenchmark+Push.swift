import CSystem
import Dispatch
import Foundation
import Synchronization
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// The push figures of `homefeed-bench serve` (see ``ServeBenchmark``): `RecordHistory` alone,
/// the push to 1 000 subscribers, its raw fan-out floors and the floor in the push's own order
/// of work, and `ReportSizes` to 100 subscribers.
extension ServeBenchmark {
    /// `RecordHistory` alone, ``pushRounds`` times: the median, in ms, and the process's CPU
    /// time per call (every thread: the daemon's and the client's), in ms. CPU near the wall
    /// time says the version is work, not waiting.
    static func recordHistory(client: VarlinkClient) -> (wall: Double, cpu: Double) {
        let cpuStart = Measure.processCPUSeconds()
        let wall = Measure.median(
            (0..<pushRounds).map { _ in
                milliseconds { callRecordHistory(client) }
            }
        )
        return (wall, (Measure.processCPUSeconds() - cpuStart) / Double(pushRounds) * 1e3)
    }

    /// Records a history event: a new version, pushed to the subscribers there are.
    static func callRecordHistory(_ client: VarlinkClient) {
        do {
            _ = try client.call("io.homefeed.RecordHistory", parameters: ["title": "bench"])
        } catch {
            fail("RecordHistory: \(error)")
        }
    }

    /// Opens `count` raw subscriptions and reads their first reply; then, ``pushRounds`` times,
    /// records a history event and waits until every subscriber has the next reply. The
    /// medians, in ms, of the whole round (from the call to the last subscriber's read) and of
    /// the `RecordHistory` reply within it.
    ///
    /// The subscribers are read on their own thread from before the call, as subscribers that
    /// are not the caller read: not only once the caller has its reply (which made the figure
    /// the caller's reply plus the whole read, rather than the call to the last push). That
    /// thread is made once and waits for the next round's push as soon as it has read one, as a
    /// subscriber process waits: a thread started per round was still starting while the
    /// version was being made, on a core the daemon needed. The floor's reader reads while its
    /// writer writes, the same way (``pushFloor(count:bytes:splicing:watched:pausing:)``). With
    /// `pausing`, each round is followed by ``roundPause``.
    static func pushToSubscribers(
        count: Int,
        socket: String,
        client: VarlinkClient,
        pausing: Bool = false
    ) -> (all: Double, reply: Double) {
        let fds = subscribePhone(count: count, socket: socket)
        defer { for fd in fds { close(fd) } }
        let reader = SubscriberReader(fds)
        reader.waitForOneReply()
        let ready = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let finished = Mutex<[UInt64]>([])
        Thread {
            ready.signal()
            for _ in 0..<pushRounds {
                reader.waitForOneReply()
                let now = DispatchTime.now().uptimeNanoseconds
                finished.withLock { $0.append(now) }
                done.signal()
            }
        }.start()
        // Started before the first round, not during it.
        ready.wait()
        var replies: [Double] = []
        var rounds: [Double] = []
        for round in 0..<pushRounds {
            let start = DispatchTime.now().uptimeNanoseconds
            callRecordHistory(client)
            replies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            done.wait()
            rounds.append(Double(finished.withLock { $0[round] } - start) / 1e6)
            if pausing { usleep(roundPause) }
        }
        return (Measure.median(rounds), Measure.median(replies))
    }

    /// `RecordHistory` alone, the push to 1 000 subscribers (and the caller's reply within it),
    /// and the fan-out floors for replies of `replySize` bytes, by `send`, by `splice`, by
    /// grouped `splice`, and by grouped `splice` to sockets an epoll watches: measured in that
    /// order and reported, in ms; then the paused push and floor, and the sequenced floor
    /// (``sequencedFloor(count:bytes:client:)``). The floor returned is the lowest of the first
    /// three, the raw ones.
    @discardableResult
    static func measurePush(
        socket: String,
        client: VarlinkClient,
        replySize: Int
    ) -> (
        recordHistory: Double, recordHistoryCPU: Double, push: Double, callerReply: Double, floor: Double,
        sequencedFloor: Double
    ) {
        let (recordHistory, recordHistoryCPU) = Self.recordHistory(client: client)
        let (push, callerReply) = pushToSubscribers(count: 1000, socket: socket, client: client)
        let sendFloor = pushFloor(count: 1000, bytes: replySize)
        let spliceFloor = pushFloor(count: 1000, bytes: replySize, splicing: .perSocket)
        let groupedFloor = pushFloor(count: 1000, bytes: replySize, splicing: .grouped)
        let watchedFloor = pushFloor(count: 1000, bytes: replySize, splicing: .grouped, watched: true)
        Measure.report("serve.push_1000.ms", push, "ms")
        Measure.report("serve.push_1000.caller_reply_ms", callerReply, "ms")
        Measure.report("serve.record_history.ms", recordHistory, "ms")
        Measure.report("serve.record_history.cpu_ms", recordHistoryCPU, "ms")
        Measure.report("serve.push_1000.floor_ms", sendFloor, "ms")
        Measure.report("serve.push_1000.splice_floor_ms", spliceFloor, "ms")
        Measure.report("serve.push_1000.grouped_floor_ms", groupedFloor, "ms")
        Measure.report("serve.push_1000.watched_floor_ms", watchedFloor, "ms")
        // Last, so that the figures above are taken as before: the push and the watched floor
        // again with the cores left idle between rounds (``roundPause``).
        let paused = pushToSubscribers(count: 1000, socket: socket, client: client, pausing: true).all
        let pausedFloor = pushFloor(count: 1000, bytes: replySize, splicing: .grouped, watched: true, pausing: true)
        Measure.report("serve.push_1000.paused_ms", paused, "ms")
        Measure.report("serve.push_1000.paused_watched_floor_ms", pausedFloor, "ms")
        // Last too: the push's own order of work, with the raw fan-out in place of the daemon's.
        let sequenced = sequencedFloor(count: 1000, bytes: replySize, client: client)
        Measure.report("serve.push_1000.sequenced_version_ms", sequenced.version, "ms")
        Measure.report("serve.push_1000.sequenced_floor_ms", sequenced.round, "ms")
        Measure.report("serve.push_1000.sequenced_ratio", push / sequenced.round, "x")
        // Timed from the RecordHistory call, the push's own floor is making the version
        // (RecordHistory alone) plus the cheapest raw fan-out: the goal is read beside it.
        let floor = min(sendFloor, spliceFloor, groupedFloor)
        Measure.report("serve.push_1000.version_floor_ms", recordHistory + floor, "ms")
        Measure.report("serve.push_1000.ratio", push / (recordHistory + floor), "x")
        return (recordHistory, recordHistoryCPU, push, callerReply, floor, sequenced.round)
    }

    /// The size of the phone manifest's reply, as the fan-out floor writes it.
    static func fullReplySize(socket: String) -> Int {
        measure(
            socket: socket,
            VarlinkCall(method: "io.homefeed.GetManifest", parameters: ["profile": "phone"]),
            calls: 10
        )
        .replySize
    }

    /// The fan-out floor: a thread writes one `bytes`-long message (NUL-terminated) to each of
    /// `count` socket pairs while this thread reads them as the subscribers are read. The
    /// median of ``pushRounds``, in ms.
    ///
    /// - Parameter splicing: write by `tee` and `splice` from a pipe holding the message
    ///   (``SpliceWriter``), rather than by `send`.
    /// - Parameter watched: the writing sockets are watched for `EPOLLIN` by an epoll instance
    ///   (never waited on), as the server's loop watches every connection for the client's next
    ///   call or its hang-up. A read from a socket whose peer has waiters then runs their
    ///   callbacks: the cost of the watch that a server cannot do without.
    /// - Parameter pausing: wait ``roundPause`` after each round.
    static func pushFloor(
        count: Int,
        bytes: Int,
        splicing: SpliceWriter.Grouping? = nil,
        watched: Bool = false,
        pausing: Bool = false
    ) -> Double {
        Measure.median(
            pushFloorRounds(count: count, bytes: bytes, splicing: splicing, watched: watched, pausing: pausing)
        )
    }

    /// The push's own order of work, with a raw fan-out in place of the daemon's: each round
    /// makes a version (`RecordHistory`, with no subscriber to push to), then writes `bytes` to
    /// `count` sockets by grouped `splice` while they are read. A push round makes its version
    /// right after the previous round's fan-out, and a version made there takes longer than one
    /// made right after another version, as the rounds of `RecordHistory` alone make theirs
    /// (docs/varlink.md, stop 53): this floor is taken in the push's order. The medians, in ms,
    /// of the rounds (the version and the fan-out after it) and of their versions.
    static func sequencedFloor(count: Int, bytes: Int, client: VarlinkClient) -> (round: Double, version: Double) {
        var versions: [Double] = []
        let fanOuts = pushFloorRounds(count: count, bytes: bytes, splicing: .grouped) {
            versions.append(milliseconds { callRecordHistory(client) })
        }
        return (Measure.median(zip(versions, fanOuts).map(+)), Measure.median(versions))
    }

    /// Each round of ``pushFloor(count:bytes:splicing:watched:pausing:)``, in ms, in order;
    /// `beforeRound` runs before each, untimed.
    static func pushFloorRounds(
        count: Int,
        bytes: Int,
        splicing: SpliceWriter.Grouping? = nil,
        watched: Bool = false,
        pausing: Bool = false,
        beforeRound: () -> Void = {}
    ) -> [Double] {
        var writers: [Int32] = []
        var readers: [Int32] = []
        for _ in 0..<count {
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
                fail("socketpair: errno \(errno)")
            }
            writers.append(pair[0])
            readers.append(pair[1])
        }
        defer { for fd in writers + readers { close(fd) } }
        let watcher = watched ? csystem_epoll_create() : -1
        defer { if watcher >= 0 { close(watcher) } }
        if watched {
            guard watcher >= 0 else { fail("epoll_create1: errno \(errno)") }
            for (index, fd) in writers.enumerated()
            where csystem_epoll_ctl(watcher, csystem_epoll_ctl_add(), fd, csystem_epollin(), UInt64(index)) != 0 {
                fail("epoll_ctl: errno \(errno)")
            }
        }
        let reader = SubscriberReader(readers)
        let message = [UInt8](repeating: UInt8(ascii: "x"), count: max(bytes - 1, 0)) + [0]
        // Made once, outside the timed rounds, as the server's pipe is made once per push.
        let spliceWriter = splicing.map { grouping in
            guard let writer = SpliceWriter(message, grouping: grouping) else { fail("splice floor: no pipe") }
            return writer
        }
        // One writer thread for every round, made before them, as the server's loop is.
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let snapshot = writers
        Thread {
            ready.signal()
            for _ in 0..<pushRounds {
                go.wait()
                if let writer = spliceWriter {
                    writer.write(to: snapshot)
                } else {
                    for fd in snapshot { _ = VarlinkBenchmark.writeFully(fd, message) }
                }
                done.signal()
            }
        }.start()
        ready.wait()
        return (0..<pushRounds).map { _ in
            beforeRound()
            let elapsed = milliseconds {
                go.signal()
                reader.waitForOneReply()
            }
            done.wait()
            if pausing { usleep(roundPause) }
            return elapsed
        }
    }

    /// Opens `count` raw sockets, each subscribed to the phone manifest (not yet read).
    static func subscribePhone(count: Int, socket: String) -> [Int32] {
        let subscribe = VarlinkCall(method: "io.homefeed.GetManifest", parameters: ["profile": "phone"], more: true)
            .framed
        var fds: [Int32] = []
        for _ in 0..<count {
            let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0, VarlinkBenchmark.connectTo(fd, path: socket), VarlinkBenchmark.writeFully(fd, subscribe)
            else {
                fail("subscriber \(fds.count): errno \(errno)")
            }
            fds.append(fd)
        }
        return fds
    }

    /// Wall time of `body` in ms.
    static func milliseconds(_ body: () -> Void) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// Opens `count` raw subscriptions, then reports a new height for the headline 21 times, each
    /// moving the cards below it, and waits until every subscriber has the re-solved
    /// manifest. The median in milliseconds, from the call to the last subscriber's reply.
    static func reportToPush(count: Int, socket: String, client: VarlinkClient) -> Double {
        let headline: String
        do {
            let reply = try client.call("io.homefeed.GetManifest", parameters: ["profile": "phone"])
            let items = reply["manifest"]?["sections"]?.arrayValue?[1]["items"]?.arrayValue
            guard let id = items?.first?["id"]?.stringValue else { fail("no headline in the phone manifest") }
            headline = id
        } catch {
            fail("GetManifest: \(error)")
        }
        let fds = subscribePhone(count: count, socket: socket)
        defer { for fd in fds { close(fd) } }
        let reader = SubscriberReader(fds)
        reader.waitForOneReply()
        var samples: [Double] = []
        for round in 0..<21 {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let sizes: JSONValue = [["id": .string(headline), "height": .double(45 + Double(round))]]
                _ = try client.call("io.homefeed.ReportSizes", parameters: ["profile": "phone", "sizes": sizes])
            } catch {
                fail("ReportSizes: \(error)")
            }
            reader.waitForOneReply()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return Measure.median(samples)
    }
}
