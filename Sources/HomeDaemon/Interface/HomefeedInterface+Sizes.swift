import FoundationEssentials
import HomeLayout
import Varlink

/// `ReportSizes`, `ListSizes`, `ClearSizes`: self-sizing across the socket
/// (`docs/io.homefeed.varlink`, `docs/manifest.md` "Self-sizing").
extension HomefeedInterface {
    static let targetParameters: Set<String> = ["profile", "width", "height", "scale"]

    func reportSizes(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        try request.rejectUnknownParameters(allowing: Self.targetParameters.union(["sizes"]))
        try authorize(request)
        let p = Parameters(request)
        guard let list = p.values["sizes"]?.arrayValue else { throw VarlinkError.invalidParameter("sizes") }
        var sizes: [ReportedSize] = []
        sizes.reserveCapacity(min(list.count, HomeService.SizeLimits.maxSizesPerReport + 1))
        for value in list {
            guard let object = value.objectValue, Set(object.keys).isSubset(of: ["id", "width", "height"]),
                let id = object["id"]?.stringValue
            else {
                throw VarlinkError.invalidParameter("sizes")
            }
            func number(_ key: String) throws(VarlinkError) -> Double? {
                guard let value = object[key], !value.isNull else { return nil }
                guard let number = value.doubleValue else { throw VarlinkError.invalidParameter("sizes") }
                return number
            }
            sizes.append(ReportedSize(id: id, width: try number("width"), height: try number("height")))
            if sizes.count > HomeService.SizeLimits.maxSizesPerReport { break }
        }
        let target = try await sizeTarget(p, defaultToFirstProfile: true)
        do throws(SizeReportError) {
            let result = try await service.reportSizes(sizes, for: target ?? .profile(""))
            return .parameters([
                "version": .int(result.version), "ignored": .array(result.ignored.map(JSONValue.string)),
            ])
        } catch {
            throw await self.error(error, method: request.call.method)
        }
    }

    func listSizes(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        try request.rejectUnknownParameters(allowing: Self.targetParameters)
        let target = try await sizeTarget(Parameters(request), defaultToFirstProfile: false)
        do throws(SizeReportError) {
            let listing = try await service.listSizes(for: target)
            return .parameters([
                "sizes": .array(
                    listing.map {
                        .object([
                            "target": .string($0.target),
                            "id": .string($0.id),
                            "width": $0.entry.width.map(JSONValue.double) ?? .null,
                            "height": $0.entry.height.map(JSONValue.double) ?? .null,
                            "reportedAt": .string(ISO8601.string($0.entry.reportedAt)),
                        ])
                    }
                )
            ])
        } catch {
            throw await self.error(error, method: request.call.method)
        }
    }

    func clearSizes(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        try request.rejectUnknownParameters(allowing: Self.targetParameters)
        try authorize(request)
        let target = try await sizeTarget(Parameters(request), defaultToFirstProfile: false)
        do throws(SizeReportError) {
            let result = try await service.clearSizes(for: target)
            return .parameters(["cleared": .int(result.cleared), "version": .int(result.version)])
        } catch {
            throw await self.error(error, method: request.call.method)
        }
    }

    /// A profile or a container given as `GetManifest` takes them; none gives the first profile
    /// (`ReportSizes`, as `GetManifest`) or every target (`ListSizes`, `ClearSizes`).
    private func sizeTarget(_ p: Parameters, defaultToFirstProfile: Bool) async throws(VarlinkError) -> SizeTarget? {
        let named = try Parameters.profileOrContainer(
            profile: p.values["profile"],
            width: p.values["width"],
            height: p.values["height"],
            scale: p.values["scale"]
        )
        if let container = named.container { return .container(container) }
        if let profile = named.profile { return .profile(profile) }
        guard defaultToFirstProfile else { return nil }
        return .profile(await service.profileNames.first ?? "")
    }

    /// Size errors as the interface declares them; internal details stay in the log.
    func error(_ error: SizeReportError, method: String) async -> VarlinkError {
        switch error {
        case .invalidSize(let id, let reason):
            VarlinkError("io.homefeed.InvalidSize", parameters: ["id": .string(id), "reason": .string(reason)])
        case .unknownProfile(let name):
            Self.unknownProfile(name)
        case .invalidContainer(let reason):
            Self.invalidContainer(reason)
        case .failed(let failure):
            await self.error(failure, method: method)
        }
    }
}
