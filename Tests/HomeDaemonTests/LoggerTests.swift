import HomeDaemon
import Synchronization
import Testing

@Suite struct LoggerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test("one line per event with the sd-daemon priority prefix; levels above the minimum are dropped lazily")
    func levels() {
        let lines = Lines()
        let logger = Logger(label: "fetch", level: .info, sink: { lines.append($0) })
        var evaluated = false
        logger.debug(
            {
                evaluated = true
                return "hidden"
            }()
        )
        logger.error("https://example.test/feed.xml: HTTP 503")
        logger.child("store").info("opened")
        #expect(lines.all == ["<3>fetch: https://example.test/feed.xml: HTTP 503", "<6>store: opened"])
        #expect(!evaluated)
        #expect(Logger.Level(name: "warning") == .warning)
        #expect(Logger.Level(name: "loud") == nil)
    }
}
