import CLibXML2
import CSQLite
import Testing

/// Proves the two system-library targets compile and link against Debian's libraries.
@Suite struct SystemLibraryTests {
    @Test("sqlite3 opens an in-memory database and round-trips a value")
    func sqliteLinks() throws {
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        defer { sqlite3_close(db) }
        #expect(sqlite3_exec(db, "CREATE TABLE t(v TEXT); INSERT INTO t VALUES('홈피드');", nil, nil, nil) == SQLITE_OK)
        var statement: OpaquePointer?
        #expect(sqlite3_prepare_v2(db, "SELECT v FROM t", -1, &statement, nil) == SQLITE_OK)
        defer { sqlite3_finalize(statement) }
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        let text = try #require(sqlite3_column_text(statement, 0))
        #expect(String(cString: text) == "홈피드")
    }

    @Test("libxml2 parses a string and decodes a predefined entity; malformed XML gives nil")
    func libxml2Links() throws {
        let xml = "<rss><channel><title>Hi &amp; bye</title></channel></rss>"
        let doc = try #require(
            xmlReadMemory(xml, Int32(xml.utf8.count), "mem.xml", nil, Int32(XML_PARSE_NONET.rawValue))
        )
        defer { xmlFreeDoc(doc) }
        let root = try #require(xmlDocGetRootElement(doc))
        let content = try #require(xmlNodeGetContent(root))
        defer { cxml_free(content) }
        #expect(String(cString: content) == "Hi & bye")

        let broken = "<rss><channel>"
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        #expect(xmlReadMemory(broken, Int32(broken.utf8.count), "bad.xml", nil, options) == nil)
    }
}
