/// The redirects of one exchange as `HTTPTransfer` follows them: the hop in progress, the
/// limit and loops, and where the `301`/`308` hops at the start of the chain led.
///
/// A `Location` may carry a user name and password (`https://user:pw@other/feed`). The hop is
/// requested as given, as libcurl would, but no URL leaves the chain with them: the shown URL
/// (the document's base, the final URL), the permanent target, and a refused or looping target
/// are all without them (`SourceList.withoutUserinfo`), and a permanent target that had them is
/// marked, so it is never saved. So is a permanent target reached through a plain `http:` hop:
/// whoever was on that hop's path could have chosen it.
///
/// A plain value, confined to its transfer.
struct RedirectChain {
    /// The URL of the hop in progress, as requested from libcurl (userinfo included).
    private(set) var currentURL: String
    /// Redirects followed so far.
    private(set) var count = 0
    /// True while every redirect was a `301` or `308` (or there was none).
    private(set) var isPermanent = true
    /// The target of the `301`/`308` hops before the first temporary one, without userinfo.
    private(set) var permanentTarget: String?
    /// True when `permanentTarget` carried a user name or password.
    private(set) var permanentTargetHadUserinfo = false
    /// True when a hop of the `301`/`308` part, its target included, was plain `http:`.
    private(set) var permanentPartPassedHTTP = false
    private var visited: Set<String>

    init(requestedURL: String) {
        currentURL = requestedURL
        visited = [requestedURL]
    }

    /// The hop in progress without a user name or password: the base of the document's links.
    var shownURL: String { Self.shown(currentURL) }

    /// Moves to `target` (absolute, as libcurl resolved the `Location`), or says why not: a
    /// scheme other than `http`/`https`, the limit, or a URL the chain already visited.
    ///
    /// - Parameter isPermanentHop: the redirect was a `301` or `308`.
    mutating func follow(to target: String, isPermanentHop: Bool, maxRedirects: Int) -> FetchError.Kind? {
        guard URLScheme(target) == .http || URLScheme(target) == .https else {
            return .redirectRefused(to: Self.shown(target))
        }
        guard count < maxRedirects else { return .tooManyRedirects }
        guard !visited.contains(target) else { return .redirectLoop(to: Self.shown(target)) }
        count += 1
        visited.insert(target)
        // One temporary hop makes everything after it temporary too (RFC 9110 §15.4).
        if isPermanent, isPermanentHop {
            permanentTarget = Self.shown(target)
            permanentTargetHadUserinfo = SourceList.withoutUserinfo(target) != nil
            if URLScheme(target) == .http { permanentPartPassedHTTP = true }
        } else {
            isPermanent = false
        }
        currentURL = target
        return nil
    }

    private static func shown(_ url: String) -> String { SourceList.withoutUserinfo(url) ?? url }
}
