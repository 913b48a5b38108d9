import HomeLayout
import Testing

@testable import HomeDaemon
@testable import Varlink

/// `GetManifest`'s parameters, read in one pass: the same answers and errors, in the same order,
/// as a look-up per name.
struct ManifestQueryTests {
    func query(_ parameters: [String: JSONValue]) throws(VarlinkError) -> ManifestQuery {
        let call = VarlinkCall(method: "io.homefeed.GetManifest", parameters: parameters)
        let sink = VarlinkReplySink(call: call, transport: SubscriptionHubTests.Recorder(), callID: 1)
        return try ManifestQuery(VarlinkRequest(call: call, peer: .unknown, replies: sink))
    }

    @Test("a profile, a container (scale 2 unless given), and the flags")
    func values() throws {
        let phone = try query(["profile": "phone", "ifNoneMatch": "e1", "changes": true])
        #expect(phone.profile == "phone")
        #expect(phone.container == nil)
        #expect(phone.ifNoneMatch == "e1")
        #expect(phone.changes)
        let container = try query(["width": 390, "height": 844, "profile": .null])
        #expect(container.container == LayoutEnvironment(width: 390, height: 844, scale: 2))
        #expect(container.profile == nil)
        #expect(!container.changes)
        #expect(try query([:]).profile == nil)
    }

    @Test("errors: the first unknown name in sorted order before any type, then types, then combinations")
    func errors() {
        // Both unknown and a wrongly typed profile: the unknown name wins, and of two, "alpha".
        #expect(throws: VarlinkError.invalidParameter("alpha")) {
            try query(["zeta": 1, "alpha": 1, "profile": 7])
        }
        #expect(throws: VarlinkError.invalidParameter("profile")) { try query(["profile": 7]) }
        #expect(throws: VarlinkError.invalidParameter("changes")) { try query(["changes": "yes"]) }
        #expect(throws: HomefeedInterface.invalidArgument("profile", "give a profile or a container, not both")) {
            try query(["profile": "phone", "width": 390, "height": 844])
        }
        #expect(throws: HomefeedInterface.invalidContainer("height is missing")) { try query(["width": 390]) }
        #expect(throws: HomefeedInterface.invalidContainer("width is missing")) { try query(["scale": 3]) }
    }

    func profileQuery(_ parameters: [String: JSONValue]) throws(VarlinkError) -> (
        profile: String?, ifNoneMatch: String?
    )? {
        let call = VarlinkCall(method: "io.homefeed.GetManifest", parameters: parameters)
        let sink = VarlinkReplySink(call: call, transport: SubscriptionHubTests.Recorder(), callID: 1)
        return try ManifestQuery.profileQuery(VarlinkRequest(call: call, peer: .unknown, replies: sink))
    }

    @Test(
        "the served path's profile query answers as the whole query, errors included, and leaves containers to it",
        arguments: [
            ["profile": "phone", "ifNoneMatch": "e1"], [:], ["profile": .null, "width": .null, "scale": .null],
            ["changes": true, "profile": "tv"], ["zeta": 1, "alpha": 1, "profile": 7], ["profile": 7],
            ["changes": "yes", "width": 390], ["changes": "yes"], ["ifNoneMatch": 3, "profile": 7],
            ["ifNoneMatch": .null],
            ["profile": "phone", "width": 390, "height": 844], ["width": 390], ["scale": 3],
            ["width": 390, "height": 844], ["height": "tall"],
        ] as [[String: JSONValue]]
    )
    func servedProfileQuery(_ parameters: [String: JSONValue]) {
        let namesContainer = ["width", "height", "scale"].contains { parameters[$0].map { !$0.isNull } ?? false }
        let served: (profile: String?, ifNoneMatch: String?)?
        do throws(VarlinkError) {
            served = try profileQuery(parameters)
        } catch {
            // The served path's error is the whole query's.
            #expect(throws: error) { try query(parameters) }
            return
        }
        guard let served else {
            // Only a container (valid or not) is left to the whole query.
            #expect(namesContainer)
            return
        }
        #expect(!namesContainer)
        #expect(throws: Never.self) {
            let whole = try query(parameters)
            #expect(whole.container == nil && whole.profile == served.profile)
            #expect(whole.ifNoneMatch == served.ifNoneMatch)
        }
    }
}
