/// `homefeedctl feed parse`.
enum FeedCommand {
    static let usage = """
        usage: homefeedctl feed parse FILE|- --url URL [--content-type TYPE]

        Run 'homefeedctl feed parse --help' for details and an example.
        """

    static func run(_ words: [String]) -> Int32 {
        switch words.first {
        case "parse":
            return FeedParseCommand.run(Array(words.dropFirst()))
        case "--help", "-h", "help":
            Console.out(usage)
            return ExitStatus.ok
        default:
            Console.error(usage)
            return ExitStatus.usage
        }
    }
}
