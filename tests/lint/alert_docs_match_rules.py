#!/usr/bin/env python3
"""Every alert of the shipped rules, as docs/alerts.md tells an operator about it.

usage: alert_docs_match_rules.py RULES_YAML ALERTS_MD

Fails (exit 1, one line per difference) when an alert of the rules file:
  - has no row in the table of "## The alerts", or the row's severity, `for` or `keep_firing_for`
    (columns "for" and "keeps firing"; `—` is a rule without it) differs from the rule;
  - has no section "## <alert>", or the section's first line ("critical, for 1m,
    `keep_firing_for: 2m45s`. ...", "critical, for 1m. ..." or "warning. ...") names another
    severity, `for` or `keep_firing_for` than the rule;
and when the table or a section names an alert the rules do not have.
An operator acts on these words (whom a page wakes, how long a condition lasts before it does,
how long a page outlives its condition), so the page and the rules must say the same.
"""
import re
import sys

import yaml

SEVERITIES = ("critical", "warning", "info")
NONE = ("—", "-", "")


def rules_of(path):
    """{alert: (severity, for, keep_firing_for)}; a duration the rule lacks is ""."""
    with open(path, encoding="utf-8") as f:
        document = yaml.safe_load(f)
    rules = {}
    for group in document["groups"]:
        for rule in group.get("rules", []):
            if "alert" in rule:
                rules[rule["alert"]] = (rule.get("labels", {}).get("severity", ""),
                                        str(rule.get("for", "")),
                                        str(rule.get("keep_firing_for", "")))
    return rules


def table_of(lines):
    """{alert: (severity, for, keep_firing_for)} from the table under "## The alerts"."""
    table, inside, columns = {}, False, {}
    for line in lines:
        if line.startswith("## "):
            inside = line.strip() == "## The alerts"
            continue
        if not inside or not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "alert":
            columns = {name: i for i, name in enumerate(cells)}
            continue
        if len(cells) < 4 or set(cells[0]) <= {"-"} or "for" not in columns:
            continue

        def duration(column):
            i = columns.get(column)
            return "" if i is None or i >= len(cells) or cells[i] in NONE else cells[i]

        severity = cells[columns.get("severity", 1)].split()[0] if cells[1] else ""
        table[cells[0]] = (severity, duration("for"), duration("keeps firing"))
    return table


def sections_of(lines, names):
    """{alert: (severity, for, keep_firing_for)} from the first line of each "## <alert>"."""
    sections = {}
    for i, line in enumerate(lines):
        match = re.match(r"^## (\w+)\s*$", line)
        if not match or not (match.group(1) in names or match.group(1).startswith("Roce")):
            continue
        first = next((l for l in lines[i + 1:] if l.strip()), "")
        head = re.match(r"^(critical|warning|info)(?:,? for (\w+))?"
                        r"(?:,? `keep_firing_for: (\w+)`)?[.,]", first)
        sections[match.group(1)] = ((head.group(1), head.group(2) or "", head.group(3) or "")
                                    if head else None)
    return sections


def said(entry):
    severity, duration, keep = entry
    return "%s, for %s, keep_firing_for %s" % (severity, duration or "none", keep or "none")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rules = rules_of(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        lines = f.read().splitlines()
    table = table_of(lines)
    sections = sections_of(lines, rules)
    problems = []
    for alert, rule in sorted(rules.items()):
        if alert not in table:
            problems.append("%s: no row in the table of \"## The alerts\"" % alert)
        elif table[alert] != rule:
            problems.append("%s: the table says %s, the rule %s" %
                            (alert, said(table[alert]), said(rule)))
        if alert not in sections:
            problems.append("%s: no section \"## %s\"" % (alert, alert))
        elif sections[alert] is None:
            problems.append("%s: the section does not start with its severity (\"%s.\")" %
                            (alert, said(rule)))
        elif sections[alert] != rule:
            problems.append("%s: the section says %s, the rule %s" %
                            (alert, said(sections[alert]), said(rule)))
    for alert in sorted(set(table) - set(rules)):
        problems.append("%s: in the table, not in the rules" % alert)
    for alert in sorted(name for name in sections if name not in rules and sections[name]):
        problems.append("%s: a section with a severity, not in the rules" % alert)
    for problem in problems:
        print(problem)
    print("%d alerts: %s" % (len(rules), "docs match the rules" if not problems else
                             "%d difference(s)" % len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
