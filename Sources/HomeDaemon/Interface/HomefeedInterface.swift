import FoundationEssentials
import HomeLayout
import HomeStore
public import Varlink

/// `io.homefeed` (`docs/io.homefeed.varlink`) on top of ``HomeService``: decode parameters,
/// check the peer, call the service, encode the reply. No state of its own beyond the
/// subscribers.
public struct HomefeedInterface: Sendable {
    let service: HomeService
    let hub: SubscriptionHub
    /// What `Reload()` runs; the daemon routes it through its service-manager notifications.
    let reloader: @Sendable () async throws -> Int

    public static let name = "io.homefeed"

    /// The error a `GetManifest` subscription beyond the connection limits gets before its
    /// connection is closed (the server's `streamingLimitError`).
    public static let tooManySubscriptions = VarlinkError("io.homefeed.TooManySubscriptions")

    public init(service: HomeService, reload: (@Sendable () async throws -> Int)? = nil) {
        self.service = service
        self.hub = SubscriptionHub(service: service)
        self.reloader = reload ?? { try await service.reload() }
    }

    /// Whether a peer has the mutating right, from its credentials alone: for the server's
    /// reserved connection slots.
    public var privilegedPeers: VarlinkPeerPredicate {
        let authorization = service.authorization
        return { authorization.mayMutate($0) }
    }

    /// Open `GetManifest` subscriptions.
    public var subscriberCount: Int {
        get async { await hub.count }
    }

    /// Pushes the current version to every `GetManifest` subscriber that does not have it yet;
    /// whoever follows ``HomeService/versions()`` calls it for each new version.
    public func pushCurrentVersion() async {
        await hub.publish()
    }

    /// Sends every subscriber its final reply; call before shutting the server down.
    public func finishSubscriptions() async {
        await hub.finish()
    }

    /// The Varlink service: `org.varlink.service` plus `io.homefeed`.
    public func varlinkService(version: String) -> VarlinkService {
        VarlinkService(
            info: VarlinkServiceInfo(
                vendor: "homefeed",
                product: "homefeedd",
                version: version,
                url: "https://homefeed.invalid/"
            ),
            interfaces: [interface]
        )
    }

    var interface: VarlinkInterface {
        VarlinkInterface(
            name: Self.name,
            description: HomefeedInterfaceDescription.text,
            methods: [
                "GetManifest": VarlinkMethod(
                    immediate: { request throws(VarlinkError) in try servedManifest(request) },
                    { request throws(VarlinkError) in try await getManifest(request) }
                ),
                "GetStatus": VarlinkMethod { request throws(VarlinkError) in try await getStatus(request) },
                "Refresh": VarlinkMethod { request throws(VarlinkError) in try await refresh(request) },
                "RecordHistory": VarlinkMethod { request throws(VarlinkError) in try await recordHistory(request) },
                "ListNotices": VarlinkMethod { request throws(VarlinkError) in try await listNotices(request) },
                "Reload": VarlinkMethod { request throws(VarlinkError) in try await reload(request) },
                "CheckStore": VarlinkMethod { request throws(VarlinkError) in try await checkStore(request) },
                "ReportSizes": VarlinkMethod { request throws(VarlinkError) in try await reportSizes(request) },
                "ListSizes": VarlinkMethod { request throws(VarlinkError) in try await listSizes(request) },
                "ClearSizes": VarlinkMethod { request throws(VarlinkError) in try await clearSizes(request) },
            ]
        )
    }

    // MARK: Methods

    /// `GetManifest` for a profile, without `more`: answered from ``HomeService/servedReply(profile:ifNoneMatch:)``
    /// on the Varlink loop thread, with no task and no hop. Nil (the async ``getManifest(_:)``
    /// answers) for a container, which may need solving (and whose errors it names), and for a
    /// subscription, which joins the hub.
    func servedManifest(_ request: VarlinkRequest) throws(VarlinkError) -> VarlinkOutcome? {
        guard !request.call.more, let query = try ManifestQuery.profileQuery(request) else { return nil }
        let served = service.servedReply(profile: query.profile, ifNoneMatch: query.ifNoneMatch)
        guard let reply = served.reply else { throw Self.unknownProfile(served.profile) }
        // The same call again is answered with these bytes until the next version.
        return .repeatable(reply, while: served.validity)
    }

    func getManifest(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        let query = try ManifestQuery(request)
        let target: SubscriptionHub.Target
        let manifest: EncodedManifest
        if let environment = query.container {
            target = .container(environment)
            do throws(LayoutSolveError) {
                manifest = try await service.manifest(for: environment)
            } catch {
                throw Self.invalidContainer(error.message)
            }
        } else {
            // No await on this path either (a subscription's first reply).
            let served = try served(query)
            target = .profile(served.profile)
            manifest = served.manifest
        }
        guard request.call.more else { return .encoded(manifest.finalReply(ifNoneMatch: query.ifNoneMatch)) }
        request.replies.send(
            VarlinkReply(encodedParameters: manifest.replyParameters(ifNoneMatch: query.ifNoneMatch), continues: true)
        )
        await hub.add(request.replies, target: target, changes: query.changes, initial: manifest)
        return .streaming
    }

    /// The current manifest of the query's profile, or `UnknownProfile`.
    private func served(_ query: ManifestQuery) throws(VarlinkError) -> (profile: String, manifest: EncodedManifest) {
        let served = service.servedManifest(profile: query.profile)
        guard let manifest = served.manifest else {
            throw Self.unknownProfile(served.profile)
        }
        return (served.profile, manifest)
    }

    func getStatus(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        try request.rejectUnknownParameters(allowing: [])
        let status = await service.status()
        let sources: [JSONValue] = status.sources.map { source in
            .object([
                "url": .string(source.url),
                "kind": .string(source.kind),
                "title": Self.optional(source.title),
                "entries": .int(source.entries),
                "lastAttempt": Self.optional(source.lastAttempt.map(ISO8601.string)),
                "lastSuccess": Self.optional(source.lastSuccess.map(ISO8601.string)),
                "nextAttempt": Self.optional(source.nextAttempt.map(ISO8601.string)),
                "failures": .int(source.failures),
                "lastError": Self.optional(source.lastError),
                "warnings": .int(source.warnings),
            ])
        }
        var parameters: [String: JSONValue] = [
            "version": .int(status.version),
            "startedAt": .string(ISO8601.string(status.startedAt)),
            "notices": .int(status.notices),
            "serviceLinks": .int(status.serviceLinks),
            "history": .int(status.history),
            "subscribers": .int(await hub.count),
            "sources": .array(sources),
            "store": .string(status.store),
            "storeReason": Self.optional(status.storeReason),
        ]
        // Absent while the version served is current.
        if let stale = status.stale { parameters["stale"] = .string(stale) }
        if let images = status.images {
            parameters["images"] = .object([
                "originals": .int(images.originals),
                "renditions": .int(images.renditions),
                "cacheBytes": .int(images.cacheBytes),
                "errors": .array(
                    images.errors.map { .object(["url": .string($0.url), "error": .string($0.error)]) }
                ),
            ])
        }
        return .parameters(parameters)
    }

    func refresh(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        try request.rejectUnknownParameters(allowing: ["url"])
        try authorize(request)
        let url = try Parameters(request).string("url")
        do throws(ServiceError) {
            let result = try await service.refresh(url: url)
            return .parameters([
                "attempted": .int(result.attempted), "changed": .int(result.changed), "version": .int(result.version),
            ])
        } catch {
            throw await self.error(error, method: request.call.method)
        }
    }

    func recordHistory(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        try request.rejectUnknownParameters(allowing: ["title", "link", "kind", "at"])
        try authorize(request)
        let p = Parameters(request)
        guard let title = try p.string("title") else { throw VarlinkError.invalidParameter("title") }
        var at: Date?
        if let text = try p.string("at") {
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw Self.invalidArgument("at", "expected an ISO 8601 time such as 2026-11-29T10:00:00Z")
            }
            at = date
        }
        let link = try p.string("link")
        let kind = try p.string("kind")
        do throws(ServiceError) {
            let result = try await service.recordHistory(title: title, link: link, kind: kind, at: at)
            return .parameters(["id": .int(Int(result.id)), "version": .int(result.version)])
        } catch {
            throw await self.error(error, method: request.call.method)
        }
    }

    func listNotices(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        try request.rejectUnknownParameters(allowing: ["limit", "source"])
        let p = Parameters(request)
        let limit = try p.integer("limit") ?? 20
        let source = try p.string("source")
        do throws(ServiceError) {
            let notices = try await service.notices(limit: limit, sourceURL: source)
            return .parameters([
                "notices": .array(
                    notices.map {
                        .object([
                            "source": .string($0.source),
                            "sourceTitle": Self.optional($0.sourceTitle),
                            "id": .string($0.id),
                            "title": Self.optional($0.title),
                            "link": Self.optional($0.link),
                            "published": Self.optional($0.published.map(ISO8601.string)),
                            "summary": Self.optional($0.summary),
                        ])
                    }
                )
            ])
        } catch {
            throw await self.error(error, method: request.call.method)
        }
    }

    func reload(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        try request.rejectUnknownParameters(allowing: [])
        try authorize(request)
        do {
            return .parameters(["version": .int(try await reloader())])
        } catch let error as ServiceError {
            throw await self.error(error, method: request.call.method)
        } catch {
            throw await self.error(
                .internalError(reason: "reload failed", cause: "\(error)"),
                method: request.call.method
            )
        }
    }

    func checkStore(_ request: VarlinkRequest) async throws(VarlinkError) -> VarlinkOutcome {
        try request.rejectUnknownParameters(allowing: [])
        try authorize(request)
        do throws(ServiceError) {
            let problems = try await service.checkStore()
            return .parameters(["ok": .bool(problems.isEmpty), "problems": .array(problems.map(JSONValue.string))])
        } catch {
            throw await self.error(error, method: request.call.method)
        }
    }

    // MARK: Helpers

    /// Mutating methods: root, the daemon's user, or the client group as the peer's credentials
    /// carry it (otherwise PermissionDenied). The group is resolved per configuration, so a
    /// reload that narrows it takes effect at once.
    func authorize(_ request: VarlinkRequest) throws(VarlinkError) {
        guard service.authorization.mayMutate(request.peer) else { throw .permissionDenied }
    }

    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    static func invalidArgument(_ parameter: String, _ reason: String) -> VarlinkError {
        VarlinkError(
            "io.homefeed.InvalidArgument",
            parameters: ["parameter": .string(parameter), "reason": .string(reason)]
        )
    }

    static func invalidContainer(_ reason: String) -> VarlinkError {
        VarlinkError("io.homefeed.InvalidContainer", parameters: ["reason": .string(reason)])
    }

    static func unknownProfile(_ name: String) -> VarlinkError {
        VarlinkError("io.homefeed.UnknownProfile", parameters: ["profile": .string(name)])
    }

    /// Service errors as the interface declares them; internal details stay in the log, where
    /// the daemon's own failures go at `<3>` with their cause.
    func error(_ error: ServiceError, method: String) async -> VarlinkError {
        switch error {
        case .storeUnavailable(let cause):
            service.logger.error("\(method) failed: \(error)")
            return VarlinkError("io.homefeed.StoreUnavailable", parameters: ["reason": .string(cause.summary)])
        case .internalError(let reason, _):
            service.logger.error("\(method) failed: \(error)")
            return VarlinkError("io.homefeed.InternalError", parameters: ["reason": .string(reason)])
        case .contentNotLaidOut:
            service.logger.error("\(method) failed: \(error)")
            return VarlinkError(
                "io.homefeed.InternalError",
                parameters: ["reason": .string(ServiceError.contentNotLaidOutReason)]
            )
        case .sourceNotFound(let url):
            return VarlinkError("io.homefeed.SourceNotFound", parameters: ["url": .string(url)])
        case .invalidArgument(let parameter, let reason):
            return Self.invalidArgument(parameter, reason)
        case .configuration(let config):
            // The new configuration's layout, which a reload may name differently from the
            // running one's: told by the error, not by comparing file names.
            if config.isLayout {
                return VarlinkError(
                    "io.homefeed.InvalidLayout",
                    parameters: ["path": .string(config.key ?? ""), "reason": .string(config.reason)]
                )
            }
            return Self.invalidArgument(URL(fileURLWithPath: config.file).lastPathComponent, config.description)
        }
    }
}
