import HomeLayout

/// A layout solved for one container, with the measurements it applied.
///
/// A version would lay every profile out twice: once with the sizes it has, to find the widths
/// its text is measured at, then with the sizes measured. When measuring changed none of the
/// measurements the layout applies (the usual case: text measured before), the second solve
/// would repeat the first, whose result is used instead (``ManifestBuilder``, issue 17). Both
/// solves must lay out the same spec and sections: the caller reads them once for both.
struct SolvedLayout: Sendable {
    /// The measurements the layout was solved with, as the solver got them.
    let measurements: LayoutMeasurements
    /// The frames; `result.environment` is the container they were solved for.
    let result: LayoutResult
}
