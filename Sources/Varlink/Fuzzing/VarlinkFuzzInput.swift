/// One fuzz input run through the Varlink message decoding as `make fuzz FUZZ_TARGET=varlink`
/// runs it, shared by the libFuzzer entry (`Fuzz/VarlinkFuzzEntry.swift`) and the regression
/// replay (VarlinkTests' `FuzzRegressionTests`), so a finding replays exactly as it was found.
///
/// Every local client reaches this code. The first byte picks how the rest arrives (the chunk
/// size); the rest is a connection's byte stream, split into messages as the server splits it
/// (with a 4 KiB limit, so that an overlong message is reached too). Each message is decoded as
/// the server decodes it (the one-pass form, with routes, reusing the previous call's parameter
/// storage and the connection's recent strings) and again the general way: the two must agree
/// (``VarlinkCall/decodingUsualForm(_:)`` promises it). A decoded call must come back equal
/// from its own encoding, and a client decodes the message as a reply, which must not trap
/// either. Unlike the server, it decodes a repeated call again (the server answers it from its
/// memo) and goes on after a refused message (the server drops the connection).
package enum VarlinkFuzzInput {
    /// What one input did.
    package struct Outcome: Sendable {
        /// Messages decoded as calls.
        package var calls = 0
        /// Messages refused, and an overlong one, which ends the stream.
        package var errors = 0
        /// The first way the decodings disagreed: a bug, never an answer to bad input.
        package var disagreement: String?
    }

    static let chunkSizes = [1, 2, 7, 64, 4096, 1 << 16]

    /// Routes as the server builds them: four of the daemon's method names and a short one,
    /// each declaring the same names (some of the daemon's parameters, and short ones), so that
    /// declared and undeclared parameters are both decoded.
    static let routes: MethodRoutes = {
        let method = VarlinkMethod { _ throws(VarlinkError) in .reply(VarlinkReply()) }
        let names = ["profile", "ifNoneMatch", "title", "sizes", "changes", "width", "a", "b"]
        let methods = [
            "io.homefeed.GetManifest", "io.homefeed.RecordHistory", "io.homefeed.ReportSizes",
            "org.varlink.service.GetInfo", "a.B",
        ]
        return MethodRoutes(
            Dictionary(uniqueKeysWithValues: methods.map { ($0, method) }),
            parameters: Dictionary(uniqueKeysWithValues: methods.map { ($0, names) })
        )
    }()

    /// Runs one input; nil for an empty one.
    package static func run(_ data: UnsafeRawBufferPointer) -> Outcome? {
        guard let selector = data.first else { return nil }
        let stream = UnsafeRawBufferPointer(rebasing: data[1...])
        let chunk = chunkSizes[Int(selector) % chunkSizes.count]
        var splitter = VarlinkFrameSplitter(maxMessageSize: 1 << 12)
        var connection = Connection()
        var offset = 0
        while offset < stream.count {
            let end = min(offset + chunk, stream.count)
            splitter.append(UnsafeRawBufferPointer(rebasing: stream[offset..<end]))
            offset = end
            while true {
                let message: [UInt8]?
                do throws(VarlinkProtocolError) {
                    message = try splitter.next()
                } catch {
                    connection.outcome.errors += 1
                    return connection.outcome
                }
                guard let message else { break }
                connection.check(message)
                if connection.outcome.disagreement != nil { return connection.outcome }
            }
        }
        return connection.outcome
    }

    /// What the server keeps from one call to the next on a connection.
    private struct Connection {
        var spare: [VarlinkCall.Member] = []
        var recent = RecentStrings()
        var outcome = Outcome()

        mutating func check(_ message: [UInt8]) {
            _ = try? VarlinkReply(decoding: message)
            let served = served(message)
            let general: Result<VarlinkCall, VarlinkProtocolError>
            do throws(VarlinkProtocolError) {
                general = .success(try VarlinkCall(decodingGenerally: message))
            } catch {
                general = .failure(error)
            }
            switch (served, general) {
            case (.success(var call), .success(let expected)):
                outcome.calls += 1
                let encoded = call.encoded
                let again = try? VarlinkCall(decoding: encoded)
                if call != expected {
                    outcome.disagreement = "the server decoded \(call), the general way \(expected)"
                } else if !Self.sameCall(again, call) {
                    let text = String(decoding: encoded, as: UTF8.self)
                    outcome.disagreement = "\(call) was encoded as \(text) and decoded as \(String(describing: again))"
                }
                spare = call.recycleParameters()
            case (.failure, .failure):
                outcome.errors += 1
            case (.success(let call), .failure(let error)):
                outcome.disagreement = "the server decoded \(call), the general way refused it: \(error)"
            case (.failure(let error), .success(let call)):
                outcome.disagreement = "the server refused \(call): \(error)"
            }
        }

        /// Whether `decoded` is `call` with its numbers read as numbers: JSON has one kind,
        /// ``JSONValue`` two, and a `double` with no fraction is written as an integer (`0e-3`
        /// comes back as `0`, an `int`). A literal beyond the double range is read as an
        /// infinity, which JSON cannot express: written as `null` (`JSONWriter.number(_:)`), it
        /// comes back as one; the daemon refuses a non-finite number where it reads one.
        private static func sameCall(_ decoded: VarlinkCall?, _ call: VarlinkCall) -> Bool {
            guard let decoded, decoded.method == call.method, decoded.oneway == call.oneway,
                decoded.more == call.more, decoded.upgrade == call.upgrade
            else { return false }
            return sameValue(.object(decoded.parameters), .object(call.parameters))
        }

        private static func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
            switch (a, b) {
            case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
            case (.null, .double(let y)), (.double(let y), .null): return !y.isFinite
            case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(sameValue)
            case (.object(let x), .object(let y)):
                return x.count == y.count && x.allSatisfy { key, value in y[key].map { sameValue(value, $0) } ?? false }
            default: return a == b
            }
        }

        /// The message decoded as the server's connection decodes it.
        private mutating func served(_ message: [UInt8]) -> Result<VarlinkCall, VarlinkProtocolError> {
            message.withUnsafeBufferPointer { bytes in
                do throws(VarlinkProtocolError) {
                    return .success(
                        try VarlinkCall.decoding(bytes, routes: routes, reusing: &spare, recent: &recent).call
                    )
                } catch {
                    return .failure(error)
                }
            }
        }
    }
}
