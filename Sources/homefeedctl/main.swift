// Placeholder; the command table lands with the layout issue.
