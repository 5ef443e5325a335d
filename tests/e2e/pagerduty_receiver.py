#!/usr/bin/env python3
"""A local stand-in for the PagerDuty Events API v2 enqueue endpoint (POST /v2/enqueue).

It validates each event the way PagerDuty documents it, answers like PagerDuty (202 with the
dedup_key, or 400 "invalid event" with the errors) and appends every request, accepted or not, as
one JSON line to --events:
    {"accepted": true|false, "errors": [...], "body": <the parsed body or the raw text>}

Usage: pagerduty_receiver.py --events FILE --port-file FILE [--host 127.0.0.1] [--port 0]
The port actually bound is written to --port-file once the server listens. Python 3 stdlib only.
"""

import argparse
import datetime
import time
import http.server
import json
import os
import threading
import uuid

ENQUEUE_PATH = "/v2/enqueue"
EVENT_ACTIONS = ("trigger", "acknowledge", "resolve")
SEVERITIES = ("critical", "error", "warning", "info")
ROUTING_KEY_LENGTH = 32
MAX_SUMMARY = 1024
MAX_DEDUP_KEY = 255
MAX_BODY_BYTES = 512 * 1024  # PagerDuty's limit on an event


def _is_text(value):
    return isinstance(value, str) and value.strip() != ""


def _valid_timestamp(value):
    try:
        datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        return True
    except (AttributeError, ValueError):
        return False


def validate_event(body):
    """Returns the list of reasons PagerDuty would reject `body` (a parsed JSON value)."""
    if not isinstance(body, dict):
        return ["event must be a JSON object"]
    errors = []
    routing_key = body.get("routing_key")
    if not isinstance(routing_key, str) or len(routing_key) != ROUTING_KEY_LENGTH:
        errors.append("routing_key must be a %d-character string" % ROUTING_KEY_LENGTH)
    action = body.get("event_action")
    if action not in EVENT_ACTIONS:
        errors.append("event_action must be one of %s" % "/".join(EVENT_ACTIONS))
    dedup_key = body.get("dedup_key")
    if dedup_key is not None and (not _is_text(dedup_key) or len(dedup_key) > MAX_DEDUP_KEY):
        errors.append("dedup_key must be a non-empty string of at most %d characters" % MAX_DEDUP_KEY)
    if action in ("acknowledge", "resolve") and dedup_key is None:
        errors.append("dedup_key is required for %s" % action)
    if action == "trigger":
        errors.extend(_validate_payload(body.get("payload")))
    for field in ("links", "images"):
        if field in body and not _valid_link_list(body[field], field):
            errors.append("%s must be a list of objects with %s" %
                          (field, "href" if field == "links" else "src"))
    return errors


def _validate_payload(payload):
    if not isinstance(payload, dict):
        return ["payload is required for trigger"]
    errors = []
    summary = payload.get("summary")
    if not _is_text(summary) or len(summary) > MAX_SUMMARY:
        errors.append("payload.summary must be a non-empty string of at most %d characters" %
                      MAX_SUMMARY)
    if not _is_text(payload.get("source")):
        errors.append("payload.source must be a non-empty string")
    if payload.get("severity") not in SEVERITIES:
        errors.append("payload.severity must be one of %s" % "/".join(SEVERITIES))
    if "timestamp" in payload and not _valid_timestamp(payload["timestamp"]):
        errors.append("payload.timestamp must be ISO 8601")
    for field in ("component", "group", "class"):
        if field in payload and not isinstance(payload[field], str):
            errors.append("payload.%s must be a string" % field)
    if "custom_details" in payload and not isinstance(payload["custom_details"], (dict, str)):
        errors.append("payload.custom_details must be an object")
    return errors


def _valid_link_list(value, field):
    key = "href" if field == "links" else "src"
    return isinstance(value, list) and all(isinstance(v, dict) and _is_text(v.get(key)) for v in value)


class EventLog:
    """Appends one JSON line per request; safe across handler threads."""

    def __init__(self, path):
        self._path = path
        self._lock = threading.Lock()

    def append(self, record):
        line = json.dumps(record, sort_keys=True) + "\n"
        with self._lock, open(self._path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())


class EnqueueHandler(http.server.BaseHTTPRequestHandler):
    server_version = "pagerduty-stand-in/1"
    event_log = None  # set by serve()

    def log_message(self, fmt, *args):  # keep test output quiet
        pass

    def _answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._answer(404, {"status": "not found"})

    def do_POST(self):
        if self.path != ENQUEUE_PATH:
            self._answer(404, {"status": "not found"})
            return
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self._answer(413, {"status": "invalid event", "message": "event too large"})
            return
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw.decode("utf-8"))
            errors = validate_event(body)
        except (UnicodeDecodeError, json.JSONDecodeError):
            body = raw.decode("utf-8", "replace")
            errors = ["body is not valid JSON"]
        accepted = not errors
        dedup_key = None
        if accepted:
            # PagerDuty assigns a dedup_key to a trigger that has none and returns it.
            dedup_key = body.get("dedup_key") or uuid.uuid4().hex
        self.event_log.append({"accepted": accepted, "errors": errors, "body": body,
                               "dedup_key": dedup_key, "received_at": time.time()})
        if accepted:
            self._answer(202, {"status": "success", "message": "Event processed",
                               "dedup_key": dedup_key})
        else:
            self._answer(400, {"status": "invalid event", "message": "Event object is invalid",
                               "errors": errors})


def serve(host, port, events_path, port_file):
    EnqueueHandler.event_log = EventLog(events_path)
    server = http.server.ThreadingHTTPServer((host, port), EnqueueHandler)
    tmp = port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("%d\n" % server.server_address[1])
    os.replace(tmp, port_file)  # readers never see a half-written port
    server.serve_forever()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--events", required=True)
    parser.add_argument("--port-file", required=True)
    args = parser.parse_args()
    serve(args.host, args.port, args.events, args.port_file)


if __name__ == "__main__":
    main()
