import CommandTable
import Foundation
import HomeFeeds
import Varlink

/// `homefeedctl refresh [URL]`: fetches one source or all now (`io.homefeed.Refresh`), then
/// names the sources whose fetch failed (`io.homefeed.GetStatus`) and exits 1 for them.
enum RefreshCommand {
    static let command = Command(
        "refresh",
        abstract: "fetch one source or all now",
        discussion: """
            Fetches one source (or all) now and waits until done, however long the fetches take \
            (Ctrl-C stops waiting; the daemon finishes them). On a terminal, all sources are fetched one \
            at a time with a line of progress each. Then names each source whose fetch failed, with its \
            error (--json: a "failed" array of {url, error}), and exits 1. A fetch the daemon had already \
            begun, which the refresh waits for, is not counted.
            """,
        arguments: [Argument("URL", .text, .optional, help: "the source to fetch, as the sources list names it")],
        options: DaemonCommand.options,
        exitStatuses: [
            ExitStatusMeaning(ExitStatus.ok, "every source refreshed was fetched"),
            ExitStatusMeaning(ExitStatus.failure, "a source's fetch failed (each is named), or an error reply"),
            ExitStatusMeaning(ExitStatus.usage, "usage error"),
            ExitStatusMeaning(ExitStatus.unavailable, "homefeedd is not running or refuses the connection"),
            ExitStatusMeaning(ExitStatus.outputFailed, "the output cannot be written"),
        ],
        examples: ["homefeedctl refresh", "homefeedctl refresh https://example.test/notices.xml"],
        body: DaemonCommand.body(run)
    )

    /// A refreshed source whose fetch failed.
    struct Failure {
        var url: String
        var error: String
    }

    static func run(_ arguments: ParsedArguments, _ client: DaemonClient) throws(CommandFailure) -> Int32 {
        let json = arguments.has("--json")
        if let url = arguments.positionals.first {
            let started = now()
            let reply = try client.call("Refresh", ["url": .string(url)], untilDone: true)
            return printRefresh(reply, failed: try failures(client, since: started, of: url), json: json)
        }
        guard isatty(STDOUT_FILENO) != 0, !json else {
            let started = now()
            let reply = try client.call("Refresh", untilDone: true)
            return printRefresh(reply, failed: try failures(client, since: started), json: json)
        }
        // On a terminal: one source at a time, so each line shows as its fetch ends.
        let sources = (try client.call("GetStatus")["sources"]?.arrayValue ?? []).compactMap {
            $0["url"]?.stringValue
        }
        var attempted = 0
        var changed = 0
        var version = 0
        var failed = false
        for (index, url) in sources.enumerated() {
            Console.out("[\(index + 1)/\(sources.count)] \(TerminalText.sanitised(url)) …", terminator: "")
            let started = now()
            let reply = try client.call("Refresh", ["url": .string(url)], untilDone: true)
            attempted += reply["attempted"]?.intValue ?? 0
            changed += reply["changed"]?.intValue ?? 0
            version = reply["version"]?.intValue ?? version
            let failure = try failures(client, since: started, of: url).first
            failed = failed || failure != nil
            Console.out(
                failure.map { " failed: \(TerminalText.sanitised($0.error))" }
                    ?? ((reply["changed"]?.intValue ?? 0) > 0 ? " changed" : " unchanged")
            )
        }
        Console.out("\(attempted) fetched, \(changed) changed; version \(version)")
        return failed ? ExitStatus.failure : ExitStatus.ok
    }

    /// The sources (`url`, else all) whose last attempt failed and began at or after `started`.
    ///
    /// `GetStatus` gives each source's last attempt in whole seconds and its error (none after a
    /// success), not which call made the attempt: an attempt that ended in the second the refresh
    /// began, before it, counts as the refresh's, and a scheduled fetch already running when the
    /// refresh began (which the refresh waits for) does not. A source refreshed by a URL it was
    /// redirected to is listed under its configured URL, and is not found.
    static func failures(
        _ client: DaemonClient,
        since started: FeedTimestamp,
        of url: String? = nil
    ) throws(CommandFailure) -> [Failure] {
        (try client.call("GetStatus")["sources"]?.arrayValue ?? []).compactMap { source in
            guard let sourceURL = source["url"]?.stringValue, url == nil || url == sourceURL,
                let error = source["lastError"]?.stringValue,
                let attempt = source["lastAttempt"]?.stringValue.flatMap(FeedTimestamp.init(parsing:)),
                attempt >= started
            else { return nil }
            return Failure(url: sourceURL, error: error)
        }
    }

    /// Now, in the whole seconds `GetStatus` gives.
    private static func now() -> FeedTimestamp {
        FeedTimestamp(secondsSince1970: Int64(Date().timeIntervalSince1970.rounded(.down)))
    }

    static func printRefresh(_ reply: [String: JSONValue], failed: [Failure], json: Bool) -> Int32 {
        if json {
            var reply = reply
            reply["failed"] = .array(failed.map { .object(["url": .string($0.url), "error": .string($0.error)]) })
            Console.out(JSONValue.object(reply).text)
        } else {
            Console.out(
                "\(reply["attempted"]?.intValue ?? 0) fetched, \(reply["changed"]?.intValue ?? 0) changed; "
                    + "version \(reply["version"]?.intValue ?? 0)"
            )
            for failure in failed {
                Console.out("failed: \(TerminalText.sanitised(failure.url)): \(TerminalText.sanitised(failure.error))")
            }
        }
        return failed.isEmpty ? ExitStatus.ok : ExitStatus.failure
    }
}
