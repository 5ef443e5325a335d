#!/usr/bin/env bash
# `make run`: the product on this host, then on a bundled example node.
set -uo pipefail
build=${1:-build}
bin="$build/rocewatch"
"$bin" version
