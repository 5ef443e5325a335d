#!/usr/bin/env python3
"""A stand-in for kube-rbac-proxy in tests: TLS on --listen, a bearer token in place of the
TokenReview and SubjectAccessReview (401 without it, 403 for a path not in --allow-paths), and
GET forwarded to --upstream. Loopback only; it runs until killed."""

import argparse
import http.server
import ssl
import urllib.error
import urllib.request


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--allow-paths", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--token-file", required=True)
    args = parser.parse_args()
    host, port = args.listen.rsplit(":", 1)
    if not host.startswith("127."):
        raise SystemExit("tls_proxy: loopback only")
    token = open(args.token_file, encoding="ascii").read().strip()
    allowed = set(args.allow_paths.split(","))
    upstream = args.upstream.rstrip("/")

    class Proxy(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.headers.get("Authorization") != "Bearer " + token:
                return self.answer(401, b"Unauthorized\n")
            if self.path.split("?", 1)[0] not in allowed:
                return self.answer(403, b"Forbidden\n")
            try:
                with urllib.request.urlopen(upstream + self.path, timeout=5) as reply:
                    self.answer(reply.status, reply.read(), reply.headers.get("Content-Type"))
            except urllib.error.HTTPError as e:
                self.answer(e.code, e.read())
            except OSError as e:
                self.answer(502, str(e).encode())

        def answer(self, status, body, content_type="text/plain"):
            self.send_response(status)
            self.send_header("Content-Type", content_type or "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer((host, int(port)), Proxy)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
