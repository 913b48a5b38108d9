import HomeDaemon
import LogCore
import TestSupport
import Testing

@Suite struct LoggerTests {
    @Test("one line per event with the sd-daemon priority prefix; levels above the minimum are dropped lazily")
    func levels() {
        let lines = LogRecorder()
        let logger = Logger(label: "fetch", level: .info, sink: lines.sink)
        var evaluated = false
        logger.debug(
            {
                evaluated = true
                return "hidden"
            }()
        )
        logger.error("https://example.test/feed.xml: HTTP 503")
        logger.child("store").info("opened")
        #expect(lines.lines == ["<3>fetch: https://example.test/feed.xml: HTTP 503", "<6>store: opened"])
        #expect(!evaluated)
        #expect(Logger.threshold(named: "warning") == .warning)
        #expect(Logger.threshold(named: "loud") == nil)
        // `critical` is always shown and nothing logs at `trace`: neither is a threshold.
        #expect(Logger.threshold(named: "critical") == nil)
        #expect(Logger.threshold(named: "trace") == nil)
    }

    @Test("each level keeps its journald priority, and levels order like swift-log's")
    func priorities() {
        let lines = LogRecorder()
        let logger = Logger(label: "l", level: .debug, sink: lines.sink)
        logger.critical("c")
        logger.error("e")
        logger.warning("w")
        logger.notice("n")
        logger.info("i")
        logger.debug("d")
        logger.log(.trace, "t")
        // sd-daemon(3): 2 crit, 3 err, 4 warning, 5 notice, 6 info, 7 debug; trace is below the
        // threshold (debug), so it is not written.
        #expect(lines.lines == ["<2>l: c", "<3>l: e", "<4>l: w", "<5>l: n", "<6>l: i", "<7>l: d"])
        #expect(LogLevel.allCases == [.trace, .debug, .info, .notice, .warning, .error, .critical])
        #expect(LogLevel.allCases.sorted() == LogLevel.allCases)
        #expect(LogLevel.trace.syslogPriority == 7)
    }
}
