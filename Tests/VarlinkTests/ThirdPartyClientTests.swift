import Foundation
import Testing
import Varlink

/// The server against a real third-party client: the Python `varlink` package (PyPI, as
/// varlink-and-systemd.md §12 suggests). `make deps` installs it; without it this test fails
/// with the install hint rather than silently passing.
@Suite("Third-party client")
struct ThirdPartyClientTests {
    static let script = """
        import json, sys
        try:
            import varlink
        except ImportError:
            print("python3 'varlink' package missing: run 'make deps' or 'pip install varlink'", file=sys.stderr)
            sys.exit(3)
        out = {}
        with varlink.Client(address=sys.argv[1]) as client:
            out["interfaces"] = client.get_interfaces()
            out["info"] = dict(client.info)
            with client.open("org.example.test") as test:
                out["echo"] = test.Echo("from python")
                out["count"] = [reply["i"] for reply in test.Count(3, _more=True)]
                try:
                    test.Echo("fail")
                except varlink.VarlinkError as error:
                    out["error"] = [error.error(), error.parameters()]
        print(json.dumps(out, sort_keys=True))
        """

    @Test("Python varlink: GetInfo, GetInterfaceDescription, a method, more, an error")
    func python() async throws {
        try await withServer { _, address, _ in
            let result = try await run("python3", ["-c", Self.script, address.description])
            try #require(result.status == 0, "python3 failed: \(result.error)")
            let output = try JSONValue(parsing: result.output.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(output["interfaces"] == ["org.varlink.service", "org.example.test"])
            #expect(output["info"]?["product"] == "varlink-tests")
            #expect(output["echo"] == ["text": "from python"])
            #expect(output["count"] == [1, 2, 3])
            #expect(output["error"] == ["org.example.test.Failed", ["reason": "asked to"]])
        }
    }
}
