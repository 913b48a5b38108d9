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

    /// The checks and their order are those of every method: the first unknown parameter (in
    /// sorted order), then each value's type.
    init(_ request: borrowing VarlinkRequest) throws(VarlinkError) {
        var profile: JSONValue?
        var width: JSONValue?
        var height: JSONValue?
        var scale: JSONValue?
        var ifNoneMatch: JSONValue?
        var changes: JSONValue?
        try Self.sort(
            request.call,
            profile: &profile,
            width: &width,
            height: &height,
            scale: &scale,
            ifNoneMatch: &ifNoneMatch,
            changes: &changes
        )
        self.ifNoneMatch = try Parameters.string(ifNoneMatch, "ifNoneMatch")
        self.changes = try Parameters.bool(changes, "changes") ?? false
        (self.profile, container) = try Parameters.profileOrContainer(
            profile: profile,
            width: width,
            height: height,
            scale: scale
        )
    }

    /// The profile and `ifNoneMatch` of a query for a profile, checked as ``init(_:)`` checks
    /// them (the same errors, in the same order); nil for a query that names a container
    /// (valid or not), which ``init(_:)`` then decides.
    ///
    /// Why: this runs for every `GetManifest` answered on the Varlink loop thread, and the
    /// whole query (with a `LayoutEnvironment` of fifteen fields) was built, copied and
    /// destroyed for two strings (callgrind, issue 17).
    static func profileQuery(
        _ request: borrowing VarlinkRequest
    ) throws(VarlinkError) -> (profile: String?, ifNoneMatch: String?)? {
        var profile: JSONValue?
        var width: JSONValue?
        var height: JSONValue?
        var scale: JSONValue?
        var ifNoneMatch: JSONValue?
        var changes: JSONValue?
        try sort(
            request.call,
            profile: &profile,
            width: &width,
            height: &height,
            scale: &scale,
            ifNoneMatch: &ifNoneMatch,
            changes: &changes
        )
        let checkedIfNoneMatch = try Parameters.string(ifNoneMatch, "ifNoneMatch")
        _ = try Parameters.bool(changes, "changes")
        // As profileOrContainer: a container is any of width, height or scale not null.
        if width?.isNull == false || height?.isNull == false || scale?.isNull == false { return nil }
        return (try Parameters.string(profile, "profile"), checkedIfNoneMatch)
    }

    /// Puts each parameter of `call` where its name says, with no hashed look-up per name
    /// (locals of the caller: no struct of six values to copy); an unknown name is
    /// `InvalidParameter`.
    private static func sort(
        _ call: borrowing VarlinkCall,
        profile: inout JSONValue?,
        width: inout JSONValue?,
        height: inout JSONValue?,
        scale: inout JSONValue?,
        ifNoneMatch: inout JSONValue?,
        changes: inout JSONValue?
    ) throws(VarlinkError) {
        var unknown: String?
        // The decoded members as they are: no dictionary is built for them.
        call.forEachParameter { name, value in
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
