import Foundation
import TestSupport
import Varlink

/// Checks `GetManifest` replies against `docs/manifest.schema.json` with a real validator, the
/// Python `jsonschema` package (PyPI, installed by `make deps`), so the published schema cannot
/// drift from what the daemon serves.
///
/// Each reply is validated as `$defs/getManifestReply`: its `manifest` against the schema's
/// root, its `changes` against `$defs/changes`. The tests that receive manifests collect them
/// (``DaemonHarness`` records every `GetManifest` it calls) and hand them here at the end.
enum ManifestSchema {
    static let schemaPath = CommandRunner.packageRoot.appendingPathComponent("docs/manifest.schema.json").path

    /// Reads the schema and the replies (a JSON array in a file), prints one line per
    /// violation: `reply N $.json.path: message`. Exit 0: valid; 1: violations; else broken.
    static let validator = """
        import json, sys
        try:
            from jsonschema import Draft202012Validator
            from referencing import Registry, Resource
        except ImportError as error:
            sys.exit(f"python jsonschema is missing ({error}): make deps, or python3 -m pip install jsonschema")
        with open(sys.argv[1]) as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        registry = Registry().with_resource(schema["$id"], Resource.from_contents(schema))
        reply = Draft202012Validator({"$ref": schema["$id"] + "#/$defs/getManifestReply"}, registry=registry)
        with open(sys.argv[2]) as f:
            replies = json.load(f)
        bad = 0
        for index, value in enumerate(replies):
            for error in sorted(reply.iter_errors(value), key=lambda e: e.json_path):
                bad += 1
                print(f"reply {index} {error.json_path}: {error.message[:300]}")
        sys.exit(1 if bad else 0)
        """

    /// The violations of `replies`, one line each; empty when every reply is valid.
    ///
    /// - Throws: when the validator cannot run (no python3, no jsonschema, an invalid schema).
    static func violations(_ replies: [[String: JSONValue]]) throws -> [String] {
        let scratch = try TemporaryDirectory(prefix: "hf-schema")
        defer { withExtendedLifetime(scratch) {} }  // removed on release
        let file = try scratch.write(JSONValue.array(replies.map(JSONValue.object)).encodedString, to: "replies.json")
        let outcome = try CommandRunner(executable: "/usr/bin/env").run(["python3", "-c", validator, schemaPath, file])
        guard outcome.status == 0 || outcome.status == 1 else {
            throw HarnessError("the schema validator did not run (\(outcome.status)): \(outcome.stderr)")
        }
        return outcome.stdout.split(separator: "\n").map(String.init)
    }
}
