import Foundation
import TestSupport
import Varlink

/// homefeedd's Varlink interface (`docs/io.homefeed.varlink`) served in the test process, each
/// method answered by a handler the test gives: for replies the real daemon never sends (a
/// manifest with a zero width, a reply slower than a client's timeout). Methods without a
/// handler answer `MethodNotImplemented`.
///
/// Its socket is in a `TemporaryDirectory`. Call ``shutdown()`` before the test ends.
/// Sendable: immutable; the server is Sendable.
final class FakeDaemon: Sendable {
    let socket: String
    private let directory: TemporaryDirectory
    private let server: VarlinkServer

    /// - Parameter configuration: the server's limits (`maxConnections` 0: every client is
    ///   accepted and closed at once, as by a daemon at its connection limit).
    init(_ methods: [String: VarlinkMethod], configuration: VarlinkServerConfiguration = VarlinkServerConfiguration())
        throws
    {
        directory = try TemporaryDirectory(prefix: "hf-fake")
        socket = directory.file("s.sock")
        let idl = try String(
            contentsOf: CommandRunner.packageRoot.appendingPathComponent("docs/io.homefeed.varlink"),
            encoding: .utf8
        )
        let service = VarlinkService(
            info: VarlinkServiceInfo(
                vendor: "homefeed",
                product: "fake homefeedd",
                version: "0",
                url: "https://x.test"
            ),
            interfaces: [VarlinkInterface(name: "io.homefeed", description: idl, methods: methods)]
        )
        server = try VarlinkServer(binding: .path(socket), service: service, configuration: configuration)
        server.start()
    }

    /// A daemon whose `GetManifest` answers with `manifest`, JSON text sent as written (so it can
    /// hold what a `JSONValue` cannot, such as 1e999).
    convenience init(manifest: String) throws {
        let reply = #"{"etag": "\"e\"", "manifest": "# + manifest + #", "version": 1}"#
        try self.init([
            "GetManifest": VarlinkMethod { _ in .reply(VarlinkReply(encodedParameters: Array(reply.utf8))) }
        ])
    }

    func shutdown() async {
        await server.shutdown()
    }
}
