import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Subscriber sockets in one epoll set, registered once (outside any timed region), so that
/// waiting for a push costs O(ready fds) per wake-up rather than O(all fds) as with poll.
/// Sendable: used by one thread at a time (the bench hands it to a reader thread and waits for
/// it before using it again).
final class SubscriberReader: @unchecked Sendable {
    let fds: [Int32]
    private let epoll: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var events = [csystem_event](repeating: csystem_event(), count: 256)

    init(_ fds: [Int32]) {
        self.fds = fds
        epoll = csystem_epoll_create()
        guard epoll >= 0 else { ServeBenchmark.fail("epoll_create1: errno \(errno)") }
        for (index, fd) in fds.enumerated()
        where csystem_epoll_ctl(epoll, csystem_epoll_ctl_add(), fd, csystem_epollin(), UInt64(index)) != 0 {
            ServeBenchmark.fail("epoll_ctl: errno \(errno)")
        }
    }

    deinit { close(epoll) }

    /// Reads until each fd has delivered one complete (NUL-terminated) message. A message is
    /// read whole (it is smaller than the buffer), so a finished fd is quiet until the next one.
    func waitForOneReply() {
        var done = [Bool](repeating: false, count: fds.count)
        var remaining = fds.count
        while remaining > 0 {
            let count = csystem_epoll_wait(epoll, &events, Int32(events.count), 10_000)
            guard count > 0 else { ServeBenchmark.fail("subscribers: no message within 10 s") }
            for event in events[..<Int(count)] {
                let index = Int(event.token)
                let n = recv(fds[index], &buffer, buffer.count, 0)
                guard n > 0 else { ServeBenchmark.fail("subscriber closed") }
                // memchr, not `contains`: the reader's own scan is part of every push figure
                // and its floor, and a byte-at-a-time loop over 1 000 manifests costs milliseconds.
                if !done[index], memchr(buffer, 0, n) != nil {
                    done[index] = true
                    remaining -= 1
                }
            }
        }
    }
}
