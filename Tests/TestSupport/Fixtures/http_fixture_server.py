#!/usr/bin/env python3
"""Loopback HTTP server for HomeFetchTests (standard library only).

Binds 127.0.0.1 on port 0 (with --ports N, on N ports, all serving the same cases), prints the
ports on the first line of stdout, separated by spaces, and serves until its stdin reaches end
of file (the test process exited or closed the pipe). Every path is /<case>/<key>[?query]:
<key> is chosen by each test, so tests running in parallel against one server never see each
other's requests.

Cases:
  feed       RSS 2.0 with ETag "v1" and a fixed Last-Modified; 304 when either validator
             matches. Query: ttl=<minutes> adds <ttl>, maxage=<s> adds Cache-Control,
             noval=1 sends no validators, badetag=1 sends the ETag "v<0xE9>1" (not UTF-8).
  gzip       the feed, gzip-encoded.
  redirect   code=<3xx>&to=<path or URL>: one redirect.
  chain      n=<hops>&code=<3xx>: a chain of n redirects (to chain/<key>?n=n-1), then the feed.
  auth       the feed when the request has an Authorization header (tests read the value from
             _requests), else 401.
  loop       302 to itself, for ever.
  pingpong   side=a: 302 to side=b, which sends 307 back to side=a.
  status     code=<n>[&retry=<Retry-After value>]: that status with a short body.
  stall      200 headers and the start of a feed, then nothing for 30 s.
  stallhead  nothing at all for 30 s.
  keepstall  a 302 to hop=2 of this key on a connection kept open (HTTP/1.1), then, when the
             redirected request comes on that connection, nothing for 30 s; hop=2 on a new
             connection is a 500. The kept connection takes any request that comes on it: test
             it with a fetcher of its own.
  endless    200 with a feed whose body never ends (XML comments), close-delimited, as fast as
             the client reads.
  bomb       a gzip body of 16 MiB of spaces inside a feed (about 16 KiB on the wire).
  gzipbomb   a gzip body that inflates to 10 GiB of spaces inside a feed's channel (about 10 MB on the
             wire), streamed; deflatebomb: the same as Content-Encoding: deflate (zlib).
  trickle    200 headers and a feed, one byte per second.
  endlessheaders  a status line, then header lines for ever.
  longheader      a status line, then one header line that never ends.
  lengthlong      Content-Length: 100000 with a 120-byte feed, then the connection closes.
  lengthshort     Content-Length: 60 with the whole feed.
  badchunked      HTTP/1.1 chunked body whose chunk size is not hexadecimal.
  nothttp         an SSH greeting instead of an HTTP response (libcurl refuses it as HTTP/0.9).
  malformed  an HTML page with status 200.
  slow       ms=<n>: the feed after n milliseconds; counts requests in flight.
  links      an OPML document of service links.

Image and page cases (HomeFetchTests' image fetches, the daemon's image pipeline):
  img        name=<file in Fixtures/images> with ETag and 304; cut=<n> sends only the first n
             bytes (a truncated image); type=<MIME> overrides the Content-Type.
  bigimg     bytes=<n>: a PNG signature followed by n zero bytes.
  polyglot   an HTML page served as image/png.
  svg        an SVG with a script and external references, served as image/svg+xml.
  hugepng    a valid PNG header claiming 100 000 x 100 000 pixels.
  frames     a GIF of 10 000 frames of 1 x 1 pixel.
  page       variant=icons (default): a head with an apple-touch-icon, sized icons and a
             manifest, all under this key; variant=manifest: only a manifest link;
             variant=none: a head without icons (then /favicon.ico counts); variant=broken: an
             apple-touch-icon that is a truncated JPEG, then a good 32 x 32 icon; variant=endless: a
             head that never ends; variant=links: 10 000 <link rel=icon> tags; variant=redirect:
             an apple-touch-icon that redirects to file:///etc/passwd.
  manifest   a web app manifest whose icons point at img under this key.
  /favicon.ico  Fixtures/images/favicon.ico (404 with --no-favicon).
  hostilefeed   an RSS feed whose items' enclosures are this server's hostile images (hugepng,
                a truncated JPEG, frames, svg, polyglot, a redirect to file:///etc/passwd) and one
                good photo, all under this key.
  hostilelinks  an OPML document (path /hostilelinks/<key>/links.opml) of service links whose
                pages are hostile (variants endless and links) or good (icons, manifest).
  _requests  JSON list of the requests seen for <key> (path and the headers tests check).
  _stats     JSON {"active", "maxActive"} of the slow case; reset=1 resets max_active.
  _count     JSON number of requests seen for every key that starts with <key>, whose path
             starts with prefix=<path> (default: any).
"""

import argparse
import gzip
import struct
import json
import os
import sys
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LAST_MODIFIED = "Sat, 01 Jan 2033 00:00:00 GMT"
IMAGES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "images")
IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
               ".ico": "image/x-icon"}
ETAG = '"v1"'

LOCK = threading.Lock()
REQUESTS = {}
ACTIVE = 0
MAX_ACTIVE = 0
BOMB = None
STREAM_BOMBS = {}
NO_FAVICON = False


def feed(ttl=None, title="Loopback feed"):
    ttl_element = "<ttl>%d</ttl>" % ttl if ttl is not None else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0"><channel><title>%s</title><link>http://127.0.0.1/</link>%s'
        "<item><title>First</title><link>/first</link><guid>first</guid></item>"
        "<item><title>Second</title><link>/second</link><guid>second</guid></item>"
        "</channel></rss>\n" % (title, ttl_element)
    ).encode("utf-8")


LINKS = (
    '<?xml version="1.0"?>\n<opml version="2.0"><head><title>Links</title></head><body>'
    '<outline text="Mail" type="link" url="/mail" category="/main-service"/>'
    '<outline text="Maps" type="link" url="https://maps.example/" category="/other-service"/>'
    "</body></opml>\n"
).encode("utf-8")


def bomb():
    global BOMB
    with LOCK:
        if BOMB is None:
            compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip container
            parts = [compressor.compress(b'<?xml version="1.0"?><rss version="2.0"><channel><title>')]
            block = b" " * (1 << 20)
            for _ in range(16):
                parts.append(compressor.compress(block))
            parts.append(compressor.compress(b"</title></channel></rss>"))
            parts.append(compressor.flush())
            BOMB = b"".join(parts)
        return BOMB


def stream_bomb(wbits):
    """(head, unit): compressed bytes of a feed's start and of 1 MiB of spaces.

    After a full flush the compressor starts from an empty window, so compressing the same
    block again gives the same bytes: the unit can be sent any number of times, and a body of
    10 GiB inflated costs 10 240 units of about 1 KiB each. The stream never gets its trailer:
    clients cut it long before."""
    with LOCK:
        if wbits not in STREAM_BOMBS:
            compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
            block = b" " * (1 << 20)
            # Spaces between elements: no text field grows, so only the body cap can stop it.
            head = compressor.compress(b'<?xml version="1.0"?><rss version="2.0"><channel>')
            head += compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
            unit = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
            STREAM_BOMBS[wbits] = (head, unit)
        return STREAM_BOMBS[wbits]


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def huge_png():
    header = struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(b"\0" * 1024))
            + png_chunk(b"IEND", b""))


def many_frames_gif(frames=10000):
    gif = b"GIF89a" + struct.pack("<HHBBB", 1, 1, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
    frame = b"\x21\xf9\x04\x00\x01\x00\x00\x00" + b"\x2c" + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00"
    return gif + frame * frames + b"\x3b"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, format, *args):  # keep the test output clean
        pass

    def send_body(self, status, body, content_type="application/rss+xml; charset=utf-8", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_GET(self):
        parts = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        segments = parts.path.strip("/").split("/")
        case = segments[0] if segments else ""
        if case == "favicon.ico":
            case = "favicon"
        key = segments[1] if len(segments) > 1 else ""
        if not case.startswith("_"):
            with LOCK:
                REQUESTS.setdefault(key, []).append(
                    {
                        "path": self.path,
                        "ifNoneMatch": self.headers.get("If-None-Match"),
                        "ifModifiedSince": self.headers.get("If-Modified-Since"),
                        "userAgent": self.headers.get("User-Agent"),
                        "acceptEncoding": self.headers.get("Accept-Encoding"),
                        "authorization": self.headers.get("Authorization"),
                    }
                )
        try:
            getattr(self, "case_" + case, self.case_unknown)(key, query)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def case_unknown(self, key, query):
        self.send_body(404, b"no such case\n", "text/plain")

    def case_feed(self, key, query):
        headers = []
        if query.get("noval") != "1":
            etag = '"v\xe91"' if query.get("badetag") == "1" else ETAG  # send_header writes Latin-1
            headers += [("ETag", etag), ("Last-Modified", LAST_MODIFIED)]
            if self.headers.get("If-None-Match") == ETAG or self.headers.get("If-Modified-Since") == LAST_MODIFIED:
                self.send_response(304)
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                return
        if "maxage" in query:
            headers.append(("Cache-Control", "public, max-age=%s" % query["maxage"]))
        ttl = int(query["ttl"]) if "ttl" in query else None
        self.send_body(200, feed(ttl), headers=headers)

    def case_gzip(self, key, query):
        self.send_body(200, gzip.compress(feed(title="Compressed " * 200)), headers=[("Content-Encoding", "gzip")])

    def case_redirect(self, key, query):
        self.send_body(int(query.get("code", "302")), b"", "text/plain", headers=[("Location", query["to"])])

    def case_chain(self, key, query):
        hops = int(query.get("n", "5"))
        if hops <= 0:
            self.case_feed(key, {"noval": "1"})
            return
        code = int(query.get("code", "302"))
        self.send_body(code, b"", "text/plain", headers=[("Location", "/chain/%s?n=%d&code=%d" % (key, hops - 1, code))])

    def case_auth(self, key, query):
        if self.headers.get("Authorization"):
            self.case_feed(key, {"noval": "1"})
        else:
            self.send_body(401, b"who are you?\n", "text/plain", headers=[("WWW-Authenticate", 'Bearer realm="feeds"')])

    def case_pingpong(self, key, query):
        if query.get("side") == "a":
            self.send_body(302, b"", "text/plain", headers=[("Location", "/pingpong/%s?side=b" % key)])
        else:
            self.send_body(307, b"", "text/plain", headers=[("Location", "/pingpong/%s?side=a" % key)])

    def case_loop(self, key, query):
        self.send_body(302, b"", "text/plain", headers=[("Location", "/loop/%s" % key)])

    def case_status(self, key, query):
        headers = [("Retry-After", query["retry"])] if "retry" in query else []
        self.send_body(int(query["code"]), b"status body\n", "text/plain", headers=headers)

    def case_stall(self, key, query):
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.end_headers()
        self.wfile.write(b'<?xml version="1.0"?><rss version="2.0"><channel><title>Stalled')
        self.wfile.flush()
        time.sleep(30)

    def case_stallhead(self, key, query):
        time.sleep(30)

    def case_keepstall(self, key, query):
        if query.get("hop") == "2":
            self.send_body(500, b"the redirect did not reuse the connection\n", "text/plain")
            return
        self.wfile.write(("HTTP/1.1 302 Found\r\nLocation: /keepstall/%s?hop=2\r\nContent-Length: 0\r\n\r\n" % key).encode())
        self.wfile.flush()
        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass
        time.sleep(30)

    def case_endless(self, key, query):
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.end_headers()
        self.wfile.write(b'<?xml version="1.0"?><rss version="2.0"><channel><title>Endless</title>')
        chunk = b"<!-- " + b"x" * 16000 + b" -->"
        while True:
            self.wfile.write(chunk)

    def case_bomb(self, key, query):
        self.send_body(200, bomb(), headers=[("Content-Encoding", "gzip")])

    def send_stream_bomb(self, wbits, encoding):
        head, unit = stream_bomb(wbits)
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("Content-Encoding", encoding)
        self.end_headers()
        self.wfile.write(head)
        for _ in range(10 * 1024 - 1):
            self.wfile.write(unit)

    def case_gzipbomb(self, key, query):
        self.send_stream_bomb(31, "gzip")  # 31: the gzip container

    def case_deflatebomb(self, key, query):
        self.send_stream_bomb(15, "deflate")  # 15: the zlib container, as HTTP's deflate is

    def case_trickle(self, key, query):
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.end_headers()
        for byte in feed():
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(1)

    def case_endlessheaders(self, key, query):
        self.wfile.write(b"HTTP/1.0 200 OK\r\n")
        line = b"X-Filler: " + b"a" * 100 + b"\r\n"
        while True:
            self.wfile.write(line * 100)

    def case_longheader(self, key, query):
        self.wfile.write(b"HTTP/1.0 200 OK\r\nX-Filler: ")
        while True:
            self.wfile.write(b"a" * 65536)

    def case_lengthlong(self, key, query):
        body = feed()
        self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: 100000\r\n\r\n")
        self.wfile.write(body[:120])

    def case_lengthshort(self, key, query):
        body = feed()
        self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: application/rss+xml\r\nContent-Length: 60\r\n\r\n")
        self.wfile.write(body)

    def case_badchunked(self, key, query):
        self.wfile.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/rss+xml\r\nTransfer-Encoding: chunked\r\n"
            b"Connection: close\r\n\r\n5\r\n<?xml\r\nzz\r\nnot hex\r\n0\r\n\r\n"
        )

    def case_nothttp(self, key, query):
        self.wfile.write(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")

    def case_malformed(self, key, query):
        self.send_body(200, b"<html><body><p>This is not a feed.</p></body></html>\n", "text/html")

    def case_slow(self, key, query):
        global ACTIVE, MAX_ACTIVE
        with LOCK:
            ACTIVE += 1
            MAX_ACTIVE = max(MAX_ACTIVE, ACTIVE)
        try:
            time.sleep(int(query.get("ms", "200")) / 1000.0)
        finally:
            with LOCK:
                ACTIVE -= 1
        self.send_body(200, feed())

    def case_links(self, key, query):
        self.send_body(200, LINKS, "text/x-opml")

    def case_img(self, key, query):
        name = os.path.basename(query.get("name", "icon.png"))
        with open(os.path.join(IMAGES, name), "rb") as file:
            body = file.read()
        etag = '"%s-%d"' % (name, len(body))
        if self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        if "cut" in query:
            body = body[: int(query["cut"])]
        content_type = query.get("type", IMAGE_TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))
        self.send_body(200, body, content_type, headers=[("ETag", etag)])

    def case_favicon(self, key, query):
        if NO_FAVICON:
            self.send_body(404, b"no favicon\n", "text/plain")
            return
        self.case_img(key, {"name": "favicon.ico"})

    def case_hostilefeed(self, key, query):
        images = [
            ("huge", "/hugepng/%s-huge" % key, "image/png"),
            ("truncated", "/img/%s-truncated?name=photo.jpg&amp;cut=400" % key, "image/jpeg"),
            ("frames", "/frames/%s-frames" % key, "image/gif"),
            ("svg", "/svg/%s-svg" % key, "image/svg+xml"),
            ("polyglot", "/polyglot/%s-polyglot" % key, "image/png"),
            ("passwd", "/redirect/%s-passwd?code=302&amp;to=file:///etc/passwd" % key, "image/png"),
            ("good", "/img/%s-good?name=photo.jpg" % key, "image/jpeg"),
        ]
        items = "".join(
            '<item><title>%s</title><link>http://127.0.0.1/%s</link><guid>%s</guid>'
            '<pubDate>Mon, 0%d Nov 2026 10:00:00 GMT</pubDate><enclosure url="%s" type="%s"/></item>'
            % (name, name, name, index + 1, url, kind) for index, (name, url, kind) in enumerate(images))
        body = ('<?xml version="1.0"?><rss version="2.0"><channel><title>Hostile</title>%s</channel></rss>\n'
                % items).encode("utf-8")
        self.send_body(200, body)

    def case_hostilelinks(self, key, query):
        links = [("endless", "endless"), ("links", "links"), ("icons", "icons"), ("manifest", "manifest")]
        outlines = "".join(
            '<outline type="link" category="/other-service" text="%s" url="/page/%s-%s?variant=%s"/>'
            % (name, key, name, variant) for name, variant in links)
        body = ('<?xml version="1.0"?><opml version="2.0"><head><title>Hostile links</title></head><body>%s'
                "</body></opml>\n" % outlines).encode("utf-8")
        self.send_body(200, body, "text/x-opml")

    def case_bigimg(self, key, query):
        remaining = int(query.get("bytes", str(5 << 20)))
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(8 + remaining))
        self.end_headers()
        self.wfile.write(b"\x89PNG\r\n\x1a\n")
        block = b"\0" * 65536
        while remaining > 0:
            self.wfile.write(block[: min(remaining, len(block))])
            remaining -= len(block)

    def case_polyglot(self, key, query):
        self.send_body(200, b"<!DOCTYPE html><html><body><script>alert(1)</script></body></html>\n", "image/png")

    def case_svg(self, key, query):
        body = (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
                b'<script>fetch("http://127.0.0.1:1/steal")</script>'
                b'<image xlink:href="file:///etc/passwd" width="10" height="10"/>'
                b'<image href="http://127.0.0.1:%d/img/%s-svgref?name=icon.png"/></svg>' % (self.server.server_address[1], key.encode()))
        self.send_body(200, body, "image/svg+xml")

    def case_hugepng(self, key, query):
        self.send_body(200, huge_png(), "image/png")

    def case_frames(self, key, query):
        self.send_body(200, many_frames_gif(), "image/gif")

    def case_page(self, key, query):
        variant = query.get("variant", "icons")
        head = b"<!DOCTYPE html><html><head><meta charset=utf-8><title>Service</title>"
        if variant == "icons":
            head += (b'<link rel="icon" href="/img/%s?name=favicon.ico" sizes="16x16">'
                     b'<link rel="apple-touch-icon" href="/img/%s?name=icon.png">'
                     b'<link rel="manifest" href="/manifest/%s">' % (key.encode(), key.encode(), key.encode()))
        elif variant == "manifest":
            head += b'<link rel="manifest" href="/manifest/%s">' % key.encode()
        elif variant == "broken":
            head += (b'<link rel="apple-touch-icon" href="/img/%s-broken?name=photo.jpg&amp;cut=400">'
                     b'<link rel="icon" href="/img/%s-good?name=icon.png" sizes="32x32">' % (key.encode(), key.encode()))
        elif variant == "redirect":
            head += (b'<link rel="apple-touch-icon" href="/redirect/%s?code=302&to=file:///etc/passwd">' % key.encode())
        elif variant == "links":
            # Every one of them a 404: nothing but the bounds can stop reading them.
            head += b"".join(b'<link rel="icon" href="/status/%s-%d?code=404" sizes="%dx%d">'
                             % (key.encode(), i, i % 512 + 1, i % 512 + 1) for i in range(10000))
        elif variant == "endless":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(head)
            line = b'<meta name="filler" content="' + b"x" * 200 + b'">\n'
            while True:
                self.wfile.write(line * 64)
                time.sleep(0.001)
        head += b"</head><body>" + b"<p>body text</p>" * 1000 + b"</body></html>\n"
        self.send_body(200, head, "text/html; charset=utf-8")

    def case_manifest(self, key, query):
        body = json.dumps({"name": "Service", "icons": [
            {"src": "/img/%s?name=icon.png" % key, "sizes": "32x32", "type": "image/png"},
            {"src": "/img/%s-mask?name=icon.png" % key, "sizes": "512x512", "purpose": "maskable"},
        ]}).encode("utf-8")
        self.send_body(200, body, "application/manifest+json")

    def case__requests(self, key, query):
        with LOCK:
            body = json.dumps(REQUESTS.get(key, [])).encode("utf-8")
        self.send_body(200, body, "application/json")

    def case__count(self, key, query):
        prefix = query.get("prefix", "")
        with LOCK:
            count = sum(
                1 for seen, requests in REQUESTS.items() if seen.startswith(key)
                for request in requests if request["path"].startswith(prefix)
            )
        self.send_body(200, json.dumps(count).encode("utf-8"), "application/json")

    def case__stats(self, key, query):
        global MAX_ACTIVE
        with LOCK:
            body = json.dumps({"active": ACTIVE, "maxActive": MAX_ACTIVE}).encode("utf-8")
            if query.get("reset") == "1":
                MAX_ACTIVE = 0
        self.send_body(200, body, "application/json")


def exit_when_stdin_closes():
    try:
        sys.stdin.buffer.read()
    finally:
        os._exit(0)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


def main():
    global NO_FAVICON
    parser = argparse.ArgumentParser()
    parser.add_argument("--ports", type=int, default=1)
    parser.add_argument("--no-favicon", action="store_true")
    arguments = parser.parse_args()
    NO_FAVICON = arguments.no_favicon
    servers = [Server(("127.0.0.1", 0), Handler) for _ in range(arguments.ports)]
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    for server in servers[1:]:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(" ".join(str(server.server_address[1]) for server in servers), flush=True)
    servers[0].serve_forever()


if __name__ == "__main__":
    main()
