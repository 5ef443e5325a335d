#!/usr/bin/env bash
# Fails, listing them, when C++ files of the tree differ from what clang-format (.clang-format)
# makes of them. `make format` fixes them.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format not installed" >&2; exit 2; }
unformatted=()
while IFS= read -r -d '' file; do
  if ! clang-format --dry-run --Werror "$file" >/dev/null 2>&1; then unformatted+=("$file"); fi
done < <(find lib daemon tests bench fuzz \( -name '*.h' -o -name '*.cc' \) -print0 | sort -z)
if ((${#unformatted[@]})); then
  echo "not formatted (run: make format):"
  printf '  %s\n' "${unformatted[@]}"
  exit 1
fi
echo "check-format: all C++ files formatted"
