#!/usr/bin/env python3
"""A stand-in for homefeed-thumbnail in ThumbnailRendererTests: speaks the line protocol and
misbehaves on request. An input path containing "crash" kills the helper with SIGSEGV, one
containing "hang" makes it sleep for a minute, "garbage" makes it answer a line that is not
JSON, "term" ends it with SIGTERM (as systemd stops a unit); any other input is answered as a
10 x 10 PNG with no renditions."""
import json
import os
import signal
import sys
import time

print(json.dumps({"hello": "homefeed-thumbnail/1", "vips": "fake", "limitsApplied": True}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    path = request["input"]
    if "crash" in path:
        os.kill(os.getpid(), signal.SIGSEGV)
    if "term" in path:
        os.kill(os.getpid(), signal.SIGTERM)
    if "hang" in path:
        time.sleep(60)
    if "garbage" in path:
        print("this is not json", flush=True)
        continue
    print(json.dumps({"id": request["id"], "ok": True, "format": "png", "width": 10, "height": 10,
                      "averageColor": "#000000", "renditions": []}), flush=True)
