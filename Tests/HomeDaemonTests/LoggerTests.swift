import HomeDaemon
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
        #expect(Logger.Level(name: "warning") == .warning)
        #expect(Logger.Level(name: "loud") == nil)
    }
}
