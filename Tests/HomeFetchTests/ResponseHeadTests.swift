import Testing

@testable import HomeFetch

/// `HTTPResponseHead` reading header lines as libcurl hands them over, bytes as they came.
@Suite struct ResponseHeadTests {
    private func head(_ lines: [[UInt8]]) -> HTTPResponseHead {
        var head = HTTPResponseHead()
        for line in lines { _ = line.withUnsafeBytes { head.read(line: $0) } }
        return head
    }

    @Test(
        "a validator that cannot be sent back byte for byte is dropped, the other one kept",
        arguments: [
            [0x22, 0x76, 0xE9, 0x31, 0x22],  // "v\u{E9}1" in Latin-1: not UTF-8
            [0x22, 0x76, 0x00, 0x31, 0x22],  // a NUL ends a C string: libcurl would send "v
            [0x22, 0x76, 0x0D, 0x31, 0x22],  // a bare CR would end the header line
        ] as [[UInt8]]
    )
    func unsendableValidator(_ value: [UInt8]) {
        let read = head([
            Array("HTTP/1.1 200 OK\r\n".utf8),
            Array("ETag: ".utf8) + value + [13, 10],
            Array("Last-Modified: ".utf8) + value + [13, 10],
            Array("ETag: \"again\"\r\n".utf8),
            Array("Content-Type: text/xml; charset=\u{E9}\r\n".utf8),
        ])
        #expect(read.header("ETag") == nil)
        #expect(read.header("Last-Modified") == nil)
        #expect(read.header("Content-Type") == "text/xml; charset=\u{E9}")
    }

    @Test("UTF-8 validators are kept as they came")
    func utf8Validator() {
        let read = head([
            Array("HTTP/2 200\r\n".utf8),
            Array("etag: W/\"é-1\"\r\n".utf8),
            Array("last-modified: Sat, 01 Jan 2033 00:00:00 GMT\r\n".utf8),
        ])
        #expect(read.header("ETag") == "W/\"é-1\"")
        #expect(read.header("Last-Modified") == "Sat, 01 Jan 2033 00:00:00 GMT")
    }
}
