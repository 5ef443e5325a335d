#!/usr/bin/env bash
# Static checks of what operators install for alerting, and the promtool unit tests of the rules:
#   - promtool check rules, and promtool test rules deploy/prometheus/tests/*.yaml;
#   - every alert has a severity (critical|warning), summary, description and a runbook_url that
#     names an existing docs/runbooks/<alert>.md, is listed in docs/alerts.md, and is unit-tested
#     both firing and not firing;
#   - the rule copy the end-to-end tests generate (windows scaled down) is still valid;
#   - amtool check-config of deploy/alertmanager/alertmanager.yml;
#   - the Grafana dashboard is valid JSON whose panels all use the templated datasource;
#   - yamllint of the YAML (when yamllint is installed);
#   - the PagerDuty stand-in's own specification (pagerduty_receiver_unittest.py).
# Exit 77 (skip) when promtool, amtool or python3 is missing.
set -euo pipefail
source "$(dirname "$0")/monitoring_stack.sh"

e2e_require_commands promtool amtool python3
e2e_setup 120
src=$E2E_SOURCE_DIR
rules=$src/deploy/prometheus/rocewatch-rules.yaml

promtool check rules "$rules"
(cd "$src/deploy/prometheus/tests" && promtool test rules ./*.yaml)

python3 - "$src" <<'EOF'
import glob, json, os, re, sys
src = sys.argv[1]
rules = open(os.path.join(src, "deploy/prometheus/rocewatch-rules.yaml"), encoding="utf-8").read()
alerts_doc = open(os.path.join(src, "docs/alerts.md"), encoding="utf-8").read()
tests = "".join(open(p, encoding="utf-8").read()
                for p in sorted(glob.glob(os.path.join(src, "deploy/prometheus/tests/*.yaml"))))
problems = []
blocks = re.split(r"^\s*- alert: ", rules, flags=re.M)[1:]
names = []
for block in blocks:
    name = block.split("\n", 1)[0].strip()
    names.append(name)
    if not re.search(r"^\s+severity: (critical|warning)\s*$", block, re.M):
        problems.append("%s: severity must be critical or warning" % name)
    for annotation in ("summary", "description"):
        if not re.search(r"^\s+%s: \S" % annotation, block, re.M):
            problems.append("%s: no %s" % (name, annotation))
    runbook = re.search(r"^\s+runbook_url: (\S+)$", block, re.M)
    if not runbook or not runbook.group(1).endswith("/docs/runbooks/%s.md" % name):
        problems.append("%s: runbook_url must point at docs/runbooks/%s.md" % (name, name))
    elif not os.path.isfile(os.path.join(src, "docs/runbooks/%s.md" % name)):
        problems.append("%s: docs/runbooks/%s.md does not exist" % (name, name))
    if "## %s" % name not in alerts_doc:
        problems.append("%s: no '## %s' section in docs/alerts.md" % (name, name))
    fires = re.search(r"alertname: %s\n\s+exp_alerts:\s*(\*\w+|\n\s+- )" % name, tests)
    quiet = re.search(r"alertname: %s\n\s+exp_alerts: \[\]" % name, tests)
    if not fires or not quiet:
        problems.append("%s: needs a promtool test where it fires and one where it does not" % name)
if len(names) != len(set(names)):
    problems.append("duplicate alert names")
runbooks = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(src, "docs/runbooks/*.md"))}
for orphan in sorted(runbooks - set(names) - {"README"}):
    problems.append("docs/runbooks/%s.md belongs to no alert" % orphan)
dashboard = json.load(open(os.path.join(src, "deploy/grafana/rocewatch-dashboard.json"), encoding="utf-8"))
variables = {v["name"] for v in dashboard["templating"]["list"]}
if not {"datasource", "instance"} <= variables:
    problems.append("dashboard: needs the datasource and instance variables")
for panel in dashboard["panels"]:
    if panel["type"] != "row" and panel.get("datasource", {}).get("uid") != "${datasource}":
        problems.append("dashboard panel %r: datasource must be ${datasource}" % panel["title"])
# Every metric the rules and the dashboard use is a documented rocewatch metric (a misspelt name
# is no PromQL error, only an alert that never fires).
documented = set()
for doc in glob.glob(os.path.join(src, "docs/*.md")):
    if not doc.endswith("/alerts.md"):
        documented |= set(re.findall(r"rocewatch_[a-z0-9_]+", open(doc, encoding="utf-8").read()))
dashboard_text = open(os.path.join(src, "deploy/grafana/rocewatch-dashboard.json"), encoding="utf-8").read()
used = set(re.findall(r"rocewatch_[a-z0-9_]+", rules + dashboard_text))
for metric in sorted(used):
    base = re.sub(r"_(bucket|sum|count)$", "", metric)
    if metric not in documented and base not in documented:
        problems.append("metric %s is used by the rules or the dashboard but not documented in docs/" % metric)
print("%d alerts checked: %s" % (len(names), ", ".join(names)))
for p in problems:
    print("PROBLEM:", p)
sys.exit(1 if problems or not names else 0)
EOF

python3 "$E2E_HELPERS/scale_rule_windows.py" --factor "$E2E_RULE_SCALE" "$rules" "$E2E_DIR/scaled.yaml"
promtool check rules "$E2E_DIR/scaled.yaml"

amtool check-config "$src/deploy/alertmanager/alertmanager.yml"

if command -v yamllint >/dev/null 2>&1; then
  yamllint -s -d '{extends: default, rules: {line-length: {max: 120}}}' \
    "$rules" "$src/deploy/alertmanager/alertmanager.yml"
  # Test series selectors are long by nature.
  yamllint -s -d '{extends: default, rules: {line-length: disable}}' "$src"/deploy/prometheus/tests/*.yaml
else
  echo "yamllint not installed: YAML style not checked"
fi

python3 "$E2E_HELPERS/pagerduty_receiver_unittest.py"
echo "PASS"
