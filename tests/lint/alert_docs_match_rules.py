#!/usr/bin/env python3
"""Every alert of the shipped rules, as docs/alerts.md tells an operator about it.

usage: alert_docs_match_rules.py RULES_YAML ALERTS_MD

Fails (exit 1, one line per difference) when an alert of the rules file:
  - has no row in the table of "## The alerts", or the row's severity or `for` differs from the
    rule (`—` in the table is a rule without `for`);
  - has no section "## <alert>", or the section's first line ("critical, for 1m. ..." or
    "warning. ...") names another severity or another `for` than the rule;
and when the table or a section names an alert the rules do not have.
An operator acts on these words (whom a page wakes, how long a condition lasts before it does),
so the page and the rules must say the same.
"""
import re
import sys

import yaml

SEVERITIES = ("critical", "warning", "info")


def rules_of(path):
    with open(path, encoding="utf-8") as f:
        document = yaml.safe_load(f)
    rules = {}
    for group in document["groups"]:
        for rule in group.get("rules", []):
            if "alert" in rule:
                rules[rule["alert"]] = (rule.get("labels", {}).get("severity", ""),
                                        str(rule.get("for", "")))
    return rules


def table_of(lines):
    """{alert: (severity, for)} from the rows of the table under "## The alerts"."""
    table, inside = {}, False
    for line in lines:
        if line.startswith("## "):
            inside = line.strip() == "## The alerts"
            continue
        if not inside or not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or cells[0] in ("alert", "---") or set(cells[0]) <= {"-"}:
            continue
        severity = cells[1].split()[0] if cells[1] else ""
        duration = "" if cells[3] in ("—", "-", "") else cells[3]
        table[cells[0]] = (severity, duration)
    return table


def sections_of(lines, names):
    """{alert: (severity, for)} from the first line of each "## <alert>" section."""
    sections = {}
    for i, line in enumerate(lines):
        match = re.match(r"^## (\w+)\s*$", line)
        if not match or not (match.group(1) in names or match.group(1).startswith("Roce")):
            continue
        first = next((l for l in lines[i + 1:] if l.strip()), "")
        head = re.match(r"^(critical|warning|info)(?:,? for (\w+))?[.,]", first)
        sections[match.group(1)] = (head.group(1), head.group(2) or "") if head else None
    return sections


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rules = rules_of(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        lines = f.read().splitlines()
    table = table_of(lines)
    sections = sections_of(lines, rules)
    problems = []
    for alert, (severity, duration) in sorted(rules.items()):
        want = "%s, for %s" % (severity, duration or "none")
        if alert not in table:
            problems.append("%s: no row in the table of \"## The alerts\"" % alert)
        elif table[alert] != (severity, duration):
            problems.append("%s: the table says %s, the rule %s" %
                            (alert, "%s, for %s" % (table[alert][0], table[alert][1] or "none"),
                             want))
        if alert not in sections:
            problems.append("%s: no section \"## %s\"" % (alert, alert))
        elif sections[alert] is None:
            problems.append("%s: the section does not start with its severity (\"%s.\")" %
                            (alert, want))
        elif sections[alert] != (severity, duration):
            problems.append("%s: the section says %s, the rule %s" %
                            (alert, "%s, for %s" % (sections[alert][0], sections[alert][1] or "none"),
                             want))
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
