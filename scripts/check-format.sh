#!/usr/bin/env bash
# Fails, listing them, when C++ files of the tree differ from what clang-format (.clang-format)
# makes of them. `make format` fixes them.
#
# One clang-format process per batch of 60 files, one batch per core at a time: starting one
# process per file (about 720) was most of the check's time.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format not installed" >&2; exit 2; }
jobs=$(nproc 2>/dev/null || echo 2)
# --dry-run --Werror names every file it would change as "FILE:LINE:COL: error: ..."; a file it
# cannot read or parse makes it exit non-zero with some other message, which fails the check.
report=$(find lib daemon tests bench fuzz \( -name '*.h' -o -name '*.cc' \) -print0 | sort -z |
  xargs -0 -r -n 60 -P "$jobs" clang-format --dry-run --Werror 2>&1)
status=$?
mapfile -t unformatted < <(printf '%s\n' "$report" |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if ((${#unformatted[@]})); then
  echo "not formatted (run: make format):"
  printf '  %s\n' "${unformatted[@]}"
  exit 1
fi
if ((status != 0)); then
  echo "check-format: clang-format failed:" >&2
  printf '%s\n' "$report" | head -n 20 >&2
  exit 1
fi
echo "check-format: all C++ files formatted"
