/// Measurements the solver could not use (§7.1): an axis that is not estimated, or an element
/// that the layout does not have. They are warnings, never errors: a client that measured a
/// cell which a newer layout sized absolutely must not break the layout.
struct MeasurementWarnings {
    /// Whether the solve runs transposed (horizontal scrolling): axis names are swapped back.
    let transposed: Bool
    private(set) var diagnostics: [LayoutDiagnostic] = []

    init(transposed: Bool) {
        self.transposed = transposed
    }

    /// Warns about measured axes of an element whose dimension there is not estimated.
    mutating func ignoredAxes(_ axes: SizingAxes, at path: String) {
        guard !axes.isEmpty else { return }
        for axis in [SizingAxes.width, .height] where axes.contains(axis) {
            let name = (axis == .width) != transposed ? "width" : "height"
            diagnostics.append(
                LayoutDiagnostic(
                    path: path,
                    message: "measured \(name) ignored: the \(name) is not estimated (only estimated "
                        + "dimensions take measurements)"
                )
            )
        }
    }

    /// Warns about a measurement of an element the layout does not have.
    mutating func noSuchElement(at path: String) {
        diagnostics.append(LayoutDiagnostic(path: path, message: "measurement ignored: no such element"))
    }

    static func itemPath(section: Int, item: Int) -> String { "sections[\(section)].items[\(item)]" }

    static func boundaryPath(section: Int?) -> String {
        section.map { "sections[\($0)].supplementaries" } ?? "supplementaries"
    }
}
