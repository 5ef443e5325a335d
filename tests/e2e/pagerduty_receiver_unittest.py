#!/usr/bin/env python3
"""Specification of the PagerDuty Events v2 stand-in (pagerduty_receiver.py)."""

import copy
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pagerduty_receiver  # noqa: E402

KEY = "0123456789abcdef0123456789abcdef"
TRIGGER = {
    "routing_key": KEY,
    "event_action": "trigger",
    "dedup_key": "abc",
    "payload": {"summary": "GID drift", "source": "node1:9879", "severity": "critical",
                "custom_details": {"device": "mlx5_0/1"}},
    "links": [{"href": "https://example.com/runbook", "text": "Runbook"}],
}


def with_changes(base, **changes):
    event = copy.deepcopy(base)
    for dotted, value in changes.items():
        target = event
        *path, last = dotted.split("__")
        for part in path:
            target = target[part]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value
    return event


DELETE = object()


class ValidateEventTest(unittest.TestCase):
    def test_accepts_what_pagerduty_accepts(self):
        cases = {
            "trigger": TRIGGER,
            "trigger without dedup_key": with_changes(TRIGGER, dedup_key=DELETE),
            "resolve without payload": {"routing_key": KEY, "event_action": "resolve",
                                        "dedup_key": "abc"},
            "acknowledge": {"routing_key": KEY, "event_action": "acknowledge", "dedup_key": "x"},
            "ISO timestamp": with_changes(TRIGGER, payload__timestamp="2026-11-29T14:00:00.123Z"),
            "every severity": with_changes(TRIGGER, payload__severity="info"),
        }
        for name, event in cases.items():
            with self.subTest(name):
                self.assertEqual(pagerduty_receiver.validate_event(event), [])

    def test_rejects_what_pagerduty_rejects(self):
        cases = {
            "not an object": ([1, 2], "JSON object"),
            "short routing key": (with_changes(TRIGGER, routing_key="abc"), "routing_key"),
            "no routing key": (with_changes(TRIGGER, routing_key=DELETE), "routing_key"),
            "unknown action": (with_changes(TRIGGER, event_action="fire"), "event_action"),
            "resolve without dedup_key": ({"routing_key": KEY, "event_action": "resolve"},
                                          "dedup_key is required"),
            "empty dedup_key": (with_changes(TRIGGER, dedup_key=""), "dedup_key"),
            "oversized dedup_key": (with_changes(TRIGGER, dedup_key="k" * 256), "dedup_key"),
            "trigger without payload": (with_changes(TRIGGER, payload=DELETE), "payload"),
            "empty summary": (with_changes(TRIGGER, payload__summary=" "), "summary"),
            "oversized summary": (with_changes(TRIGGER, payload__summary="s" * 1025), "summary"),
            "no source": (with_changes(TRIGGER, payload__source=DELETE), "source"),
            "unknown severity": (with_changes(TRIGGER, payload__severity="page"), "severity"),
            "bad timestamp": (with_changes(TRIGGER, payload__timestamp="yesterday"), "timestamp"),
            "link without href": (with_changes(TRIGGER, links=[{"text": "x"}]), "links"),
        }
        for name, (event, expected) in cases.items():
            with self.subTest(name):
                errors = pagerduty_receiver.validate_event(event)
                self.assertTrue(any(expected in e for e in errors), errors)


class ServerTest(unittest.TestCase):
    """Runs the receiver as the end-to-end tests do and talks HTTP to it."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.events = os.path.join(self.dir.name, "events.jsonl")
        port_file = os.path.join(self.dir.name, "port")
        self.proc = subprocess.Popen(
            [sys.executable, pagerduty_receiver.__file__, "--events", self.events,
             "--port-file", port_file])
        deadline = time.monotonic() + 10
        while not os.path.exists(port_file):
            self.assertLess(time.monotonic(), deadline, "receiver did not start")
            time.sleep(0.05)
        with open(port_file, encoding="utf-8") as f:
            self.url = "http://127.0.0.1:%d" % int(f.read())

    def tearDown(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.dir.cleanup()

    def post(self, path, data):
        request = urllib.request.Request(self.url + path, data=data, method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def recorded(self):
        with open(self.events, encoding="utf-8") as f:
            return [json.loads(line) for line in f]

    def test_accepted_event_answers_202_with_its_dedup_key_and_is_recorded(self):
        before = time.time()
        status, answer = self.post("/v2/enqueue", json.dumps(TRIGGER).encode())
        self.assertEqual((status, answer["status"], answer["dedup_key"]), (202, "success", "abc"))
        recorded = self.recorded()
        self.assertEqual(len(recorded), 1)
        # When it arrived (Unix time), for the tests that measure how fast a page gets here.
        self.assertTrue(before <= recorded[0].pop("received_at") <= time.time())
        self.assertEqual(recorded, [{"accepted": True, "errors": [], "body": TRIGGER,
                                     "dedup_key": "abc"}])

    def test_trigger_without_dedup_key_gets_one(self):
        status, answer = self.post("/v2/enqueue",
                                   json.dumps(with_changes(TRIGGER, dedup_key=DELETE)).encode())
        self.assertEqual(status, 202)
        self.assertEqual(len(answer["dedup_key"]), 32)

    def test_invalid_event_answers_400_and_is_recorded_as_rejected(self):
        status, answer = self.post("/v2/enqueue", b"{not json")
        self.assertEqual((status, answer["status"]), (400, "invalid event"))
        [record] = self.recorded()
        self.assertFalse(record["accepted"])
        self.assertEqual(record["errors"], ["body is not valid JSON"])

    def test_other_paths_are_not_found(self):
        status, _ = self.post("/v2/other", json.dumps(TRIGGER).encode())
        self.assertEqual(status, 404)


if __name__ == "__main__":
    unittest.main()
