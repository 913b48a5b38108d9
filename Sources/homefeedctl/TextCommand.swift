import CommandTable

/// `homefeedctl text measure`: text measured offline, as homefeedd measures its text slots.
enum TextCommand {
    static let command = Command(
        "text",
        abstract: "measure text offline",
        discussion: """
            Measures text offline with Pango and fontconfig, as homefeedd measures the text slots of the \
            [text NAME] styles of homefeedd.conf.
            """,
        subcommands: [CommandGroup([TextMeasureCommand.command])]
    )
}
