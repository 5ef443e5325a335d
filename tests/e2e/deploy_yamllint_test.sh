#!/usr/bin/env bash
# The YAML that operators install (deploy/kubernetes, deploy/npd) passes yamllint with the
# committed configuration deploy/yamllint.yaml.
source "$(dirname "$0")/deploy_lib.sh"
need_tool yamllint "Debian package yamllint"
cd "$src"
yamllint --strict -c deploy/yamllint.yaml deploy/kubernetes deploy/npd deploy/grafana tests/e2e/fixtures/npd ||
  fail "yamllint found problems"
echo "PASS: yamllint"
