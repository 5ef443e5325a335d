#!/usr/bin/env python3
"""Runs every query of a Grafana dashboard (panel targets, annotation queries, templating
variables) against a real Prometheus, the way Grafana would send them, and fails on any query
error. With --require-data, a query that returns no series over the range fails too (a misspelt
metric name is not an error in PromQL, only an empty panel); --allow-empty TITLE exempts a panel.

Usage: dashboard_queries.py --prometheus URL --var instance=HOST:PORT [--var device=.*]
                            [--range 120] [--require-data] [--allow-empty TITLE]... DASHBOARD
Prints one line per query: ok/EMPTY/ERROR, series count, panel title.
"""

import argparse
import json
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

# Grafana's built-in interval variables, as it would set them for a 1 s scrape interval.
BUILTINS = {"__rate_interval": "4s", "__interval": "2s", "__range": "2m", "__range_s": "120",
            "__interval_ms": "2000"}
LABEL_VALUES = re.compile(r"^label_values\((.*),\s*(\w+)\)$")


def substitute(expr, variables):
    def replace(m):
        name = m.group(1) or m.group(2)
        if name not in variables:
            raise KeyError("undefined dashboard variable $%s" % name)
        return variables[name]

    return re.sub(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)", replace, expr)


def panels_of(dashboard):
    for panel in dashboard.get("panels", []):
        yield panel
        yield from panel.get("panels", [])  # panels of collapsed rows


def queries_of(dashboard):
    """Yields (title, expr, instant) for every query the dashboard sends."""
    for panel in panels_of(dashboard):
        for target in panel.get("targets", []):
            if target.get("expr"):
                yield panel.get("title", "?"), target["expr"], bool(target.get("instant"))
    for annotation in dashboard.get("annotations", {}).get("list", []):
        if annotation.get("expr"):
            yield "annotation: " + annotation["name"], annotation["expr"], False
    for variable in dashboard.get("templating", {}).get("list", []):
        if variable.get("type") != "query":
            continue
        query = variable["query"]
        query = query.get("query", "") if isinstance(query, dict) else query
        m = LABEL_VALUES.match(query.strip())
        if not m:
            raise ValueError("variable %s: unsupported query %r" % (variable["name"], query))
        # label_values(metric, label) is the set of `label` values of `metric`.
        yield "variable: " + variable["name"], "group by (%s) (%s)" % (m.group(2), m.group(1)), True


def run_query(prometheus, expr, instant, range_seconds):
    now = time.time()
    if instant:
        path, params = "/api/v1/query", {"query": expr, "time": "%.3f" % now}
    else:
        path, params = "/api/v1/query_range", {"query": expr, "start": "%.3f" % (now - range_seconds),
                                               "end": "%.3f" % now, "step": "1"}
    url = prometheus + path + "?" + urllib.parse.urlencode(params)
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            answer = json.load(response)
    except urllib.error.HTTPError as error:
        answer = json.load(error)
    if answer.get("status") != "success":
        return None, "%s: %s" % (answer.get("errorType"), answer.get("error"))
    return len(answer["data"]["result"]), None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prometheus", required=True)
    parser.add_argument("--var", action="append", default=[], help="NAME=VALUE")
    parser.add_argument("--range", type=float, default=120, help="seconds of range queries")
    parser.add_argument("--require-data", action="store_true")
    parser.add_argument("--allow-empty", action="append", default=[])
    parser.add_argument("dashboard")
    args = parser.parse_args()
    with open(args.dashboard, encoding="utf-8") as f:
        dashboard = json.load(f)
    variables = dict(BUILTINS)
    variables.update(v.split("=", 1) for v in args.var)
    variables.setdefault("datasource", "prometheus")

    failures = 0
    count = 0
    for title, expr, instant in queries_of(dashboard):
        count += 1
        try:
            series, error = run_query(args.prometheus, substitute(expr, variables), instant,
                                      args.range)
        except KeyError as e:
            series, error = None, str(e)
        if error:
            verdict = "ERROR"
            failures += 1
        elif series == 0 and args.require_data and title not in args.allow_empty:
            verdict = "EMPTY"
            failures += 1
        else:
            verdict = "ok" if series else "empty"
        print("%-5s %3s series  %s%s" % (verdict, series if series is not None else "-", title,
                                         ("  (%s)" % error) if error else ""))
    print("%d dashboard queries, %d failed" % (count, failures))
    sys.exit(1 if failures or count == 0 else 0)


if __name__ == "__main__":
    main()
