#!/usr/bin/env python3
"""A small homefeed consumer: what a home-screen UI does with the manifest, in Python.

It subscribes to one profile's manifest with changes (io.homefeed.GetManifest with
"more": true and "changes": true), keeps a local copy of the manifest, measures the
elements whose sizing is "estimated" or "computed" with a stand-in measure function (a real
UI measures its fitted cells; a "computed" height was measured by the daemon with Pango, exact
for a UI that draws with Pango, and a report from a UI that draws otherwise wins over it),
reports those sizes (io.homefeed.ReportSizes), and prints one line per
manifest it receives.

    python3 examples/homefeed_consumer.py --profile phone
    python3 examples/homefeed_consumer.py --socket /run/homefeed/homefeed.sock --updates 3

Needs the Python varlink client (python3 -m pip install varlink). The manifest's fields are
described in docs/manifest.md and, machine-readably, docs/manifest.schema.json.
"""

import argparse
import math
import os
import sys

import varlink

SYSTEM_SOCKET = "/run/homefeed/homefeed.sock"


def default_socket():
    """The per-user daemon's socket when it exists, else the system one (as homefeedctl)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        user = os.path.join(runtime, "homefeed", "homefeed.sock")
        if os.path.exists(user):
            return user
    return SYSTEM_SOCKET


def measure(element):
    """Stand-in for a UI's text measurement: the height of the element's title wrapped at its
    frame's width, 8 points per character, 20 points per line, 12 points of padding."""
    title = (element.get("content") or {}).get("title", "")
    width = max(element["frame"]["width"], 1)
    lines = max(1, math.ceil(len(title) * 8 / width))
    return 12 + 20 * lines


# The sizings a UI with its own text engine measures and reports.
REPORTED_SIZINGS = ("estimated", "computed")


def estimated_elements(manifest):
    """Every element of the manifest that takes a reported size and is not yet measured by a
    client: items, headers, footers, other boundary items and badges (group supplementaries
    take none)."""
    sections = manifest["sections"]
    for section in sections:
        candidates = [section["header"], section["footer"]] + section["supplementaries"] + section["items"]
        for element in candidates:
            if element and element["sizing"] in REPORTED_SIZINGS and "group" not in element:
                yield element
    for element in manifest["globalSupplementaries"]:
        if element["sizing"] in REPORTED_SIZINGS:
            yield element


def element_count(manifest):
    count = len(manifest["globalSupplementaries"])
    for section in manifest["sections"]:
        count += len(section["items"]) + len(section["supplementaries"])
        count += (section["header"] is not None) + (section["footer"] is not None)
    return count


def describe(reply, local):
    """One line for a reply: the first manifest, a change list, or a redraw."""
    version = reply["version"]
    changes = reply.get("changes")
    if local is None:
        return f"version {version}: {element_count(reply['manifest'])} elements"
    if changes is None:
        return f"version {version}: redraw everything ({element_count(reply['manifest'])} elements)"
    return (
        f"version {version} since {changes['since']}: {len(changes['inserted'])} inserted, "
        f"{len(changes['deleted'])} deleted, {len(changes['moved'])} moved, {len(changes['updated'])} updated"
    )


def run(socket, profile, updates):
    local = None  # the local copy of the manifest
    received = 0
    address = socket if socket.startswith("unix:") else "unix:" + socket
    with varlink.Client(address=address) as client:
        # The subscription keeps its connection busy: calls go on a second one.
        with client.open("io.homefeed") as subscription, client.open("io.homefeed") as calls:
            for reply in subscription.GetManifest(profile=profile, changes=True, _more=True):
                if "manifest" not in reply:
                    continue  # only with ifNoneMatch, which a subscription does not send
                print(describe(reply, local), flush=True)
                local = reply["manifest"]
                sizes = [{"id": element["id"], "height": measure(element)} for element in estimated_elements(local)]
                if sizes:
                    answer = calls.ReportSizes(profile=profile, sizes=sizes)
                    print(
                        f"reported {len(sizes)} sizes, {len(answer['ignored'])} ignored: version {answer['version']}",
                        flush=True,
                    )
                if updates and received >= updates:
                    break
                received += 1  # manifests after the first: changes
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--socket", default=None, help="the daemon's socket (default: yours, else the system's)")
    parser.add_argument("--profile", default="phone", help="the profile to follow (default phone)")
    parser.add_argument(
        "--updates", type=int, default=0, help="stop after this many changes after the first manifest (default: never)"
    )
    arguments = parser.parse_args()
    socket = arguments.socket or os.environ.get("HOMEFEED_SOCKET") or default_socket()
    try:
        return run(socket, arguments.profile, arguments.updates)
    except varlink.VarlinkError as error:
        print(f"homefeed_consumer: {error.error()} {error.parameters()}", file=sys.stderr)
        return 1
    except (ConnectionError, FileNotFoundError, PermissionError) as error:
        print(f"homefeed_consumer: cannot talk to homefeedd on {socket}: {error}", file=sys.stderr)
        return 69
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
