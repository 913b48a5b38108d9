import HomeLayout

/// A layout solved for one container, with everything the solver read to make it.
///
/// `LayoutSolver.solve` is a pure function of ``Input``: a layout whose input equals the one a
/// solve would get is that solve's result, and is used instead of solving again
/// (``ManifestBuilder/solve(spec:sections:environment:measurements:elements:reusing:)``, issue
/// 17). Within a version, the manifest reuses the layout its text was measured in when
/// measuring changed none of the measurements it applies; across versions, text is measured in
/// the last version's layout when nothing the solver reads has changed (a history event that
/// leaves every section's item count as it was, an image arriving).
struct SolvedLayout: Sendable {
    /// What the solver read.
    struct Input: Sendable, Equatable {
        /// The spec as solved: hidden sections without their supplementaries.
        var spec: LayoutSpec
        var environment: LayoutEnvironment
        /// Items per section, in the spec's order.
        var itemCounts: [Int]
        /// The measurements the layout applied, as the solver got them.
        var measurements: LayoutMeasurements
    }

    let input: Input
    /// The frames.
    let result: LayoutResult
}
