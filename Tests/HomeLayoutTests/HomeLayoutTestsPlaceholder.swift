// Placeholder so the package resolves on the `feeds` branch: Package.swift declares
// HomeLayoutTests, whose real tests live on the layout branch. Delete on merge.
