import HomeLayout
import Varlink

/// Typed access to call parameters; a wrong type is `InvalidParameter` naming the parameter.
struct Parameters {
    let values: [String: JSONValue]

    init(_ request: VarlinkRequest) {
        values = request.parameters
    }

    func string(_ name: String) throws(VarlinkError) -> String? { try Self.string(values[name], name) }
    func number(_ name: String) throws(VarlinkError) -> Double? { try Self.number(values[name], name) }
    func bool(_ name: String) throws(VarlinkError) -> Bool? { try Self.bool(values[name], name) }

    func integer(_ name: String) throws(VarlinkError) -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let number = value.intValue else { throw VarlinkError.invalidParameter(name) }
        return number
    }

    /// `value` (the parameter `name`, absent or `null`: nil) as a string.
    static func string(_ value: JSONValue?, _ name: String) throws(VarlinkError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let string = value.stringValue else { throw VarlinkError.invalidParameter(name) }
        return string
    }

    /// `value` as a finite number.
    static func number(_ value: JSONValue?, _ name: String) throws(VarlinkError) -> Double? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.doubleValue, number.isFinite else { throw VarlinkError.invalidParameter(name) }
        return number
    }

    /// `value` as a Boolean.
    static func bool(_ value: JSONValue?, _ name: String) throws(VarlinkError) -> Bool? {
        guard let value, !value.isNull else { return nil }
        guard case .bool(let flag) = value else { throw VarlinkError.invalidParameter(name) }
        return flag
    }
}

/// The parameters of a `GetManifest` call, checked: a profile (nil: the first configured) or a
/// container, not both.
struct ManifestQuery {
    var profile: String?
    var container: LayoutEnvironment?
    var ifNoneMatch: String?
    var changes: Bool

    /// One pass over the call's (few) parameters, with no hashed look-up per name: this runs
    /// for every `GetManifest`, on the Varlink loop thread. The checks and their order are those
    /// of every method: the first unknown parameter (in sorted order), then each value's type.
    /// Borrowing: an initializer takes its arguments owned, and the request copied in and
    /// destroyed again was 400 instructions of a call (callgrind, issue 17).
    init(_ request: borrowing VarlinkRequest) throws(VarlinkError) {
        var profile: JSONValue?
        var width: JSONValue?
        var height: JSONValue?
        var scale: JSONValue?
        var ifNoneMatch: JSONValue?
        var changes: JSONValue?
        var unknown: String?
        // The decoded members as they are: no dictionary is built for them.
        request.call.forEachParameter { name, value in
            // By length first: a name is compared only with the (at most two) names of its
            // length, not with each case in turn.
            switch name.utf8.count {
            case 7 where name == "profile": profile = value
            case 5 where name == "width": width = value
            case 6 where name == "height": height = value
            case 5 where name == "scale": scale = value
            case 11 where name == "ifNoneMatch": ifNoneMatch = value
            case 7 where name == "changes": changes = value
            default: if unknown.map({ name < $0 }) ?? true { unknown = name }
            }
        }
        if let unknown { throw .invalidParameter(unknown) }
        self.ifNoneMatch = try Parameters.string(ifNoneMatch, "ifNoneMatch")
        self.changes = try Parameters.bool(changes, "changes") ?? false
        (self.profile, container) = try Parameters.profileOrContainer(
            profile: profile,
            width: width,
            height: height,
            scale: scale
        )
    }
}

extension Parameters {
    /// A profile or a container (`width`, `height`, optional `scale`, 2 by default), never
    /// both: how `GetManifest` and the size methods name what they are about. Both nil when
    /// neither was given.
    static func profileOrContainer(
        profile: JSONValue?,
        width: JSONValue?,
        height: JSONValue?,
        scale: JSONValue?
    ) throws(VarlinkError) -> (profile: String?, container: LayoutEnvironment?) {
        guard let width = try number(width, "width") else {
            guard try number(height, "height") == nil, try number(scale, "scale") == nil else {
                throw HomefeedInterface.invalidContainer("width is missing")
            }
            return (try string(profile, "profile"), nil)
        }
        guard try string(profile, "profile") == nil else {
            throw HomefeedInterface.invalidArgument("profile", "give a profile or a container, not both")
        }
        guard let height = try number(height, "height") else {
            throw HomefeedInterface.invalidContainer("height is missing")
        }
        return (nil, LayoutEnvironment(width: width, height: height, scale: try number(scale, "scale") ?? 2))
    }
}
