// Placeholder; benchmarks land with the layout issue.
