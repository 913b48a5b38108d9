internal import CSystem
internal import Dispatch
internal import Synchronization
internal import SystemCalls

#if canImport(Glibc)
    internal import Glibc
#endif

/// An object registered with an ``EventLoop`` that is told when its fd is ready.
protocol EventLoopHandler: AnyObject {
    /// Called on the loop thread with the epoll event bits (``EventLoop/readable`` and so on).
    func handleEvents(_ events: UInt32)

    /// Called on the loop thread when a timer armed with ``EventLoop/schedule(at:for:)`` fires
    /// while the handler is still registered.
    func handleTimer(_ deadline: UInt64)
}

extension EventLoopHandler {
    func handleTimer(_ deadline: UInt64) {}
}

/// One thread waiting in `epoll_wait` for every socket of a server, and the task executor the
/// server's calls prefer.
///
/// *Why one thread.* A request then costs one wake-up, the same as a blocking echo server:
/// the loop thread wakes in `epoll_wait`, reads, runs a synchronous handler inline and writes
/// the reply before it waits again. Dispatch sources cost two (the manager thread's epoll, then
/// a worker), and every hop to another queue costs another (docs/varlink.md, "Figures").
///
/// *Work from other threads* (a reply from a handler that awaited an actor, a push, a task job)
/// goes into a locked inbox; the first item after the loop last looked writes the eventfd that
/// wakes it, later ones only append. *Work from the loop thread itself* goes into a local list
/// that runs right after the current item, before the loop waits again (``perform(_:)``): a
/// call's first job and its reply cost no wake-up at all, and an item that runs inside a lock
/// (a ``VarlinkReplySink`` delivering) is never re-entered while that lock is held.
///
/// *Pushes wait their turn.* Replies of streaming (`more`) calls — a push to a thousand
/// subscribers — go into a first-in-first-out lane that the loop works through 64 at a time
/// between rounds of everything else (``PushLane``). A caller's reply, a task's next step or a
/// new request therefore waits for one slice of a fan-out, not for all of it. The replies of
/// one streaming call keep their order: they all take the lane, in the order they would have
/// run; no other call of their connection can run meanwhile (one call at a time). From other
/// threads they gather in the inbox's own list, which becomes the lane whole when the lane is
/// empty: a fan-out is handed over without the loop touching each delivery twice.
///
/// *Back-to-back calls* find the loop awake: while a client calls again within microseconds of
/// each reply, the loop polls for a few microseconds before it sleeps, as long as that brings the
/// calls sooner than sleeping does (``IdleSpin``). Any other loop sleeps at once.
///
/// *Timers* are a deadline heap on the server's ``ServerClock``; `epoll_wait` sleeps until the
/// earliest one (a manual clock wakes the loop when it is advanced).
///
/// *Stopping*: ``stop()`` lets the current iteration finish and the thread exit. Work that
/// arrives later (a task resuming after its connection closed) runs on a serial fallback queue,
/// in order, so a task executor never drops a job. The eventfd and the epoll fd are closed only
/// when the loop is freed: a thread that found the loop running writes its eventfd after
/// leaving the inbox lock, and a connection torn down on the fallback queue may still change
/// its interest, so neither must ever reach a closed fd whose number was reused meanwhile.
///
/// Sendable: the inbox and the thread identity are behind `Mutex` and `Atomic`; everything else
/// (handlers, timers, the local list, the scratch buffer) is touched only on the loop thread.
final class EventLoop: TaskExecutor, @unchecked Sendable {
    // The epoll event bits, Linux's ABI values as literals: read from C, each was a lazily
    // initialised global, five `swift_once` calls in every call's events (issue 17, callgrind).
    // `init` checks them against the C headers.
    static let readable: UInt32 = 0x001
    static let writable: UInt32 = 0x004
    static let failed: UInt32 = 0x008
    static let hangUp: UInt32 = 0x010

    enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
        /// A reply for a connection: carried as a value, so handing a push to a thousand
        /// connections allocates no closure per connection.
        case delivery(ReplyDelivery)
    }

    private struct Inbox: ~Copyable {
        var items: [Work] = []
        /// Replies of streaming calls, for the push lane.
        var pushes: [ReplyDelivery?] = []
        /// The eventfd was written and the loop has not emptied the inbox since.
        var isSignalled = false
        /// The thread has exited (or never started and was stopped): use the fallback queue.
        var isStopped = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []

        /// Notes that the loop has work; true when the eventfd must be written (the first
        /// item since the loop last emptied the inbox).
        mutating func signal() -> Bool {
            if isSignalled { return false }
            isSignalled = true
            return true
        }
    }

    let name: String
    /// The time timers are scheduled in.
    let clock: ServerClock
    /// Open until the loop is freed, stopped or not (*Stopping*, above).
    let epollFD: Int32
    /// Open until the loop is freed, as ``epollFD``.
    let wakeFD: Int32
    private let inbox = Mutex(Inbox())
    /// `pthread_self()` of the loop thread, 0 before it starts.
    private let threadID = Atomic<UInt>(0)
    private let started = Atomic<Bool>(false)
    private let fallback: DispatchQueue

    // Loop thread only (and, once the loop has stopped, the serial fallback queue, ordered
    // after the loop's last access by the inbox lock).
    //
    // Release builds do not check these fields' exclusive access at run time
    // (`@exclusivity(unchecked)`, SE-0176): each check was about 80 instructions, 9 of them a
    // call and 8 a push (callgrind, issue 17). What makes that safe: one thread at a time
    // touches them, and every access is a read, an assignment or one mutating call of a value
    // type that calls nothing of the loop's; a handler or a closure runs only after the access
    // ends, and old work is swapped out before it is freed (no work's deinit submits). Debug
    // builds, which run the tests, keep checking every access.
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var handlers = HandlerTable(firstToken: EventLoop.wakeToken + 1)
    /// Work submitted on the loop thread, run after the current item (``perform(_:)``). Every
    /// piece of loop-thread code that can submit runs inside an item, so being on the loop
    /// thread is all ``submit(_:)`` asks: no flag to set and clear around each item.
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var pending: [Work] = []
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var isStopping = false
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var timers = DeadlineHeap()
    /// See ``now()``.
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var wakeTime: UInt64
    /// The inbox's previous arrays, kept to swap in so the inbox reuses their capacity.
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var spareBatch: [Work] = []
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var spareArrivals: [ReplyDelivery?] = []
    /// Replies of streaming calls, waiting for their slice.
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var pushes = PushLane<ReplyDelivery>()
    /// The slice's pushes written by one fan-out (``runPushSlice()``).
    #if !DEBUG
        @exclusivity(unchecked)
    #endif
    private var batch = PushBatch()
    /// A receive buffer shared by every connection of the loop (one read at a time).
    let scratch: UnsafeMutableRawBufferPointer
    /// Writes pushes to many connections without copying them (``PipedReply``).
    let splicer: Splicer

    private static let wakeToken: UInt64 = 1
    private static let eventCapacity: Int32 = 256

    /// - Throws: ``SystemError`` from `epoll_create1` or `eventfd` (out of fds).
    init(name: String, clock: ServerClock = .monotonic) throws(SystemError) {
        self.name = name
        self.clock = clock
        self.wakeTime = clock.now()
        precondition(
            (Self.readable, Self.writable, Self.failed, Self.hangUp)
                == (csystem_epollin(), csystem_epollout(), csystem_epollerr(), csystem_epollhup()),
            "epoll event bits differ from <sys/epoll.h>"
        )
        epollFD = csystem_epoll_create()
        if epollFD < 0 { throw SystemError(call: "epoll_create1", errno: errno) }
        wakeFD = csystem_eventfd()
        if wakeFD < 0 {
            let code = errno
            Socket.close(epollFD)
            throw SystemError(call: "eventfd", errno: code)
        }
        if csystem_epoll_ctl(epollFD, csystem_epoll_ctl_add(), wakeFD, Self.readable, Self.wakeToken) != 0 {
            let code = errno
            Socket.close(wakeFD)
            Socket.close(epollFD)
            throw SystemError(call: "epoll_ctl", errno: code)
        }
        fallback = DispatchQueue(label: "varlink.\(name).stopped")
        // Allocated once nothing can throw: a failed init runs no deinit.
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        splicer = Splicer(discardBuffer: scratch)
        clock.onAdvance { [weak self] in self?.submit {} }
    }

    deinit {
        scratch.deallocate()
        Socket.close(wakeFD)
        Socket.close(epollFD)
    }

    /// Starts the loop thread. Call once.
    func start() {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let result = startDetachedThread { self.runThread() }
        // Out of threads at start-up: nothing can be served; the process cannot go on sensibly.
        precondition(result == 0, "pthread_create failed: \(SystemError.name(of: result))")
    }

    /// Lets the current iteration finish and the thread exit, and returns once it has (at once
    /// for a loop that never started). Idempotent.
    func stop() async {
        if !started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let stopped = inbox.withLock { inbox -> Bool in
                    if inbox.isStopped { return true }
                    inbox.stopWaiters.append(continuation)
                    return false
                }
                if stopped {
                    continuation.resume()
                } else {
                    submit { [self] in isStopping = true }
                }
            }
        } else {
            inbox.withLock { $0.isStopped = true }
        }
    }

    /// True on the loop thread.
    var isOnLoop: Bool {
        let id = threadID.load(ordering: .relaxed)
        return id != 0 && pthread_equal(pthread_self(), pthread_t(id)) != 0
    }

    // MARK: - Submitting work

    func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Runs `work` on the loop thread: after the current item when called there, else at the
    /// loop's next wake-up, in submission order.
    func submit(_ work: @escaping @Sendable () -> Void) {
        submit(.closure(work))
    }

    /// Hands `delivery` to its connection on the loop thread, in order with ``submit(_:)``.
    ///
    /// A streaming reply from another thread — a push, one of a fan-out's thousand — is moved
    /// into the inbox's push list, not copied: a copy retains and releases its connection and
    /// reply once more (callgrind, issue 17).
    func submit(_ delivery: consuming ReplyDelivery) {
        guard delivery.isStreaming, !isOnLoop else {
            submit(.delivery(delivery))
            return
        }
        var carried: ReplyDelivery? = consume delivery
        let action = inbox.withLock { inbox -> (wake: Bool, stopped: Bool) in
            if inbox.isStopped { return (false, true) }
            inbox.pushes.append(carried.take())
            return (inbox.signal(), false)
        }
        if action.stopped, let delivery = carried {
            fallback.async { delivery.run() }
        } else if action.wake {
            wake()
        }
    }

    private func submit(_ work: Work) {
        if isOnLoop {
            pending.append(work)
            return
        }
        let action = inbox.withLock { inbox -> (wake: Bool, stopped: Bool) in
            if inbox.isStopped { return (false, true) }
            // Streaming deliveries from other threads took the push list (submit(_: ReplyDelivery)).
            inbox.items.append(work)
            return (inbox.signal(), false)
        }
        if action.stopped {
            fallback.async { [self] in run(work) }
        } else if action.wake {
            wake()
        }
    }

    /// Wakes the loop for work just put in its inbox, or leaves that to the sending task's
    /// ``WakeBatch``.
    private func wake() {
        if let batch = WakeBatch.current, batch.owe(self) { return }
        signalWake()
    }

    /// Makes the loop's `epoll_wait` return: one write to its eventfd. Also what a
    /// ``WakeBatch`` writes for the submits it held back; a loop that has stopped since reads it
    /// no more, which does no harm: the fd lives as long as the loop.
    func signalWake() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    private func run(_ work: Work) {
        switch work {
        case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
        case .closure(let closure): closure()
        case .delivery(let delivery): delivery.run()
        }
    }

    /// Runs `work` on the loop thread, or puts it in the push lane when it is a reply of a
    /// streaming call (``ReplyDelivery/isStreaming``).
    private func dispatch(_ work: Work) {
        if case .delivery(let delivery) = work, delivery.isStreaming {
            pushes.append(delivery)
        } else {
            run(work)
        }
    }

    /// Runs `body`, then everything it (and what it ran) submitted from this thread.
    private func perform(_ body: () -> Void) {
        body()
        runPending()
    }

    /// Runs everything submitted from this thread since, and what that submits.
    private func runPending() {
        // One read in the usual case (an inline answer submits nothing).
        if pending.isEmpty { return }
        var index = 0
        while index < pending.count {
            let work = pending[index]
            index += 1
            dispatch(work)
        }
        if pending.capacity > 1024 {
            // Swapped out, so the old items are freed after the access to `pending` ends.
            var old: [Work] = []
            swap(&old, &pending)
        } else {
            // Usually one item or none: popping keeps the capacity without the generic
            // `removeAll(keepingCapacity:)` (470 instructions a call, callgrind).
            while pending.popLast() != nil {}
        }
    }

    // MARK: - Registration (loop thread only)

    /// A token for `handler`, to pass to ``setInterest(_:token:from:to:)``.
    func register(_ handler: any EventLoopHandler) -> UInt64 {
        handlers.insert(handler)
    }

    /// Forgets the handler; events already collected for its token are dropped, and so, once
    /// they outnumber the live ones, are the timers of handlers that are gone. Without that, a
    /// client connecting and closing in a loop would grow the heap by one idle timer a
    /// connection until the idle timeout (up to 30 days) passed.
    func unregister(_ token: UInt64) {
        handlers.remove(token)
        if timers.count > Self.timerCompactionFloor + 4 * handlers.count {
            timers.removeAll { entry in entry.token.map { handlers[$0] == nil } ?? false }
        }
    }

    /// Timers the heap may hold beyond four per live handler before the dead ones are dropped:
    /// a live connection has one or two armed, so each compaction frees at least this many
    /// entries, and its O(n) pass costs O(1) per closed connection.
    static let timerCompactionFloor = 1024

    /// Timers waiting, stale ones included (tests).
    var pendingTimers: Int { timers.count }

    /// Changes which events `fd` is watched for: added when `old` was empty, removed when `new`
    /// is (so a half-closed socket that wants nothing cannot report `EPOLLHUP` for ever).
    ///
    /// - Returns: 0, or the errno of `epoll_ctl`.
    func setInterest(_ fd: Int32, token: UInt64, from old: UInt32, to new: UInt32) -> Int32 {
        guard old != new else { return 0 }
        let operation =
            old == 0 ? csystem_epoll_ctl_add() : new == 0 ? csystem_epoll_ctl_del() : csystem_epoll_ctl_mod()
        return csystem_epoll_ctl(epollFD, operation, fd, new, token) == 0 ? 0 : errno
    }

    /// Runs `work` on the loop thread once ``clock`` reaches `deadline` (ns).
    func schedule(at deadline: UInt64, _ work: @escaping () -> Void) {
        timers.schedule(at: deadline, work)
    }

    /// Calls ``EventLoopHandler/handleTimer(_:)`` of the handler registered under `token` once
    /// ``clock`` reaches `deadline`, if it is still registered then. The timer holds the token,
    /// not the handler: no weak reference, which would give the handler a side table and make
    /// every retain and release of it take the slow path (callgrind, issue 17).
    func schedule(at deadline: UInt64, for token: UInt64) {
        // Unowned: the loop owns the timers, which it empties before it goes.
        timers.schedule(at: deadline, token: token) { [unowned self] in handlers[token]?.handleTimer(deadline) }
    }

    /// ``clock``'s time in nanoseconds when the loop last woke: read once per wake-up, as
    /// libuv's loop time, so a call costs one clock read, not one per timestamp. Loop thread only.
    func now() -> UInt64 { wakeTime }

    // MARK: - The thread

    private func runThread() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
        csystem_set_thread_name("varlink-\(name)")
        splicer.adopt()
        let events = UnsafeMutablePointer<csystem_event>.allocate(capacity: Int(Self.eventCapacity))
        defer { events.deallocate() }
        var spin = IdleSpin()
        while !isStopping {
            let timeout = waitTimeout()
            let sleptAt = ServerClock.monotonic.now()
            var count: Int32 = 0
            if spin.isArmed && timeout != 0 {
                count = poll(events, until: sleptAt + IdleSpin.window)
            }
            if count == 0 { count = csystem_epoll_wait(epollFD, events, Self.eventCapacity, timeout) }
            let wokeAt = ServerClock.monotonic.now()
            wakeTime = clock == .monotonic ? wokeAt : clock.now()
            if timeout == 0 { spin.notePoll() } else { spin.noteWait(events: count, waited: wokeAt &- sleptAt) }
            if count < 0 {
                // EINTR: a signal; anything else is a bug in how the loop uses epoll.
                precondition(errno == EINTR, "epoll_wait failed: \(SystemError.name(of: errno))")
                continue
            }
            for index in 0..<Int(count) {
                let event = events[index]
                if event.token == Self.wakeToken {
                    runInbox()
                } else if let handler = handlers[event.token] {
                    perform { handler.handleEvents(event.events) }
                }
            }
            while let timer = timers.popDue(now: wakeTime) {
                perform(timer.work)
            }
            // Checked here: most wake-ups (a call, a reply) leave the lane empty.
            if !pushes.isEmpty { runPushSlice() }
        }
        // Pushes still in the lane when the loop stops are written (the server's shutdown has
        // already written them before closing its connections: writeWaitingPushes()).
        while !pushes.isEmpty { runPushSlice() }
        finishThread()
    }

    /// Polls without sleeping until events are ready or ``ServerClock/monotonic`` reaches
    /// `deadline` (``IdleSpin``). The count of events, 0, or -1 with `errno`.
    private func poll(_ events: UnsafeMutablePointer<csystem_event>, until deadline: UInt64) -> Int32 {
        while true {
            let count = csystem_epoll_wait(epollFD, events, Self.eventCapacity, 0)
            if count != 0 || ServerClock.monotonic.now() >= deadline { return count }
        }
    }

    /// Milliseconds until the earliest timer (rounded up), or -1 without timers.
    private func waitTimeout() -> Int32 {
        // Pushes left: only look for what else is ready, then go on with them.
        if !pushes.isEmpty { return 0 }
        guard let deadline = timers.nextDeadline else { return -1 }
        // From the last wake-up: the time spent on this iteration's events (microseconds)
        // only delays a timer of seconds by as much.
        let now = wakeTime
        guard deadline > now else { return 0 }
        return Int32(clamping: (deadline - now + 999_999) / 1_000_000)
    }

    private func runInbox() {
        var counter: UInt64 = 0
        _ = Glibc.read(wakeFD, &counter, 8)
        var batch = spareBatch
        spareBatch = []
        var arrived = spareArrivals
        spareArrivals = []
        inbox.withLock { inbox in
            inbox.isSignalled = false
            swap(&batch, &inbox.items)
            swap(&arrived, &inbox.pushes)
        }
        // Pushes first: an item of this batch that closes connections (a shutdown) writes the
        // lane out before, and a push submitted before it must be there.
        spareArrivals = pushes.append(contentsOf: arrived)
        for work in batch {
            perform { dispatch(work) }
        }
        batch.removeAll(keepingCapacity: batch.capacity <= 1024)
        spareBatch = batch
    }

    /// Writes every push waiting in the lane, before an item closes connections (a shutdown):
    /// a subscription's final reply sent before it still reaches the client. Loop thread,
    /// within an item (what the pushes start runs after it, as the item's own work does).
    func writeWaitingPushes() {
        while let delivery = pushes.popFirst() {
            delivery.run()
        }
    }

    /// Writes the next slice of the push lane (each push, and what it starts, as one item):
    /// runs of pushes of one piped reply, each to a connection that takes it straight, by one
    /// fan-out (``PushBatch``); any other delivery on its own, once the run before it is out.
    private func runPushSlice() {
        for _ in 0..<PushLane<ReplyDelivery>.sliceLength {
            guard let delivery = pushes.popFirst() else { break }
            switch batch.add(consume delivery, splicer: splicer) {
            case .added:
                continue
            case .otherReply(let other):
                writeBatch()
                switch batch.add(other, splicer: splicer) {
                case .added: continue
                // An empty batch has no other reply; either way the push runs.
                case .notDirect(let alone), .otherReply(let alone): runAlone(alone)
                }
            case .notDirect(let alone):
                writeBatch()
                runAlone(alone)
            }
        }
        writeBatch()
    }

    /// Runs one delivery, and what it starts, as an item. Not through perform(_:): a closure
    /// capturing the delivery copied it, retaining and releasing its connection and reply once
    /// more for each push (callgrind, issue 17).
    private func runAlone(_ delivery: ReplyDelivery) {
        delivery.run()
        runPending()
    }

    /// Writes the batch's pushes by one fan-out. Past a socket that does not take its push
    /// whole, that push is finished as a direct send's is, and the rest go back to the front of
    /// the lane, to be checked again (a connection may have two pushes in the batch): put back
    /// before anything runs, so that an item writing the lane out (a shutdown) finds them there,
    /// in order.
    private func writeBatch() {
        guard let target = batch.target else { return }
        defer { batch.removeAll() }
        let reply = target.reply
        let result = batch.fds.withUnsafeBufferPointer {
            splicer.fanOut(reply.framedBytes.count, from: target.source, to: $0)
        }
        guard let stop = result.stop else { return }
        let stopped = batch.deliveries[result.written]
        pushes.prepend(contentsOf: batch.deliveries[(result.written + 1)...])
        if let sent = stop.transfer {
            stopped.connection.finishDirectPush(reply, after: sent)
            runPending()
        } else {
            runAlone(stopped)
        }
    }

    private func finishThread() {
        // Off the loop from here: what tearing the handlers down submits goes to the inbox,
        // and from there to the fallback queue, as anything submitted later.
        threadID.store(0, ordering: .releasing)
        splicer.disown()
        handlers.removeAll()
        timers.removeAll()
        let (leftPushes, left, waiters) = inbox.withLock { inbox in
            inbox.isStopped = true
            defer {
                inbox.pushes = []
                inbox.items = []
                inbox.stopWaiters = []
            }
            return (inbox.pushes, inbox.items, inbox.stopWaiters)
        }
        // Pushes first, as runInbox takes them.
        for case let delivery? in leftPushes {
            fallback.async { delivery.run() }
        }
        for work in left {
            fallback.async { [self] in run(work) }
        }
        for waiter in waiters { waiter.resume() }
    }
}
