#!/usr/bin/env python3
"""Fails when two test files of one test binary define the same name at namespace scope.

The unit and integration test binaries compile in unity batches (tests/CMakeLists.txt): 8 files,
in path order, in one translation unit. Adding a file moves every later file into another batch,
so two files that each define, say, `constexpr char kId[]` or `std::string ReadAll(...)` in their
anonymous namespace compile today and break the build of whoever adds a file between them. This
finds such pairs before that happens.

Looked at: lines at column 0 (the project's style puts namespace-scope definitions there) that
define a constant (`constexpr`/`const ... kName`), a struct, class or enum, a function (same name
and same parameter list: overloads are fine), or an alias (`using X = ...`) to another type than
the other file's. Usage: unity_test_names.py TESTS_DIR
"""

import collections
import pathlib
import re
import sys

CONSTANT = re.compile(r"^(?:static\s+)?(?:inline\s+)?(?:constexpr|const)\b[^=;(]*?\b(k\w+)\s*(?:\[[^\]]*\])?\s*(?:=|\{)")
TYPE = re.compile(r"^(?:struct|class|enum class|enum)\s+(\w+)\b[^;]*$")
ALIAS = re.compile(r"^using\s+(\w+)\s*=\s*(.+?);")
FUNCTION = re.compile(r"^(?!return\b)(?:static\s+|inline\s+|constexpr\s+)*[\w:<>,\*&\s]+?[\s\*&](\w+)\((.*)\)\s*(?:const\s*)?\{?\s*$")


def binaries(tests_dir):
    unit, integration = [], []
    for path in sorted(tests_dir.rglob("*_test.cc")):
        parts = path.relative_to(tests_dir).parts
        if parts[0] == "integration":
            integration.append(path)
        elif parts[0] not in ("e2e", "load", "kubelet_module"):
            unit.append(path)
    return {"rocewatch_unit_tests": unit, "rocewatch_integration_tests": integration}


def definitions(path):
    found = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line[0] in " \t#/}" or line.startswith(("TEST", "namespace", "template")):
            continue
        if m := CONSTANT.match(line):
            found[("constant", m.group(1))] = number
        elif m := TYPE.match(line):
            found[("type", m.group(1))] = number
        elif m := ALIAS.match(line):
            found[("alias", m.group(1), m.group(2).strip())] = number
        elif m := FUNCTION.match(line):
            params = re.sub(r"\s+", " ", m.group(2)).strip()
            found[("function", m.group(1), params)] = number
    return found


def main():
    tests_dir = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "tests")
    clashes = []
    for binary, files in binaries(tests_dir).items():
        where = collections.defaultdict(list)
        aliases = collections.defaultdict(set)
        for path in files:
            for key, number in definitions(path).items():
                if key[0] == "alias":
                    aliases[key[1]].add((key[2], f"{path}:{number}"))
                    continue
                where[key].append(f"{path}:{number}")
        for key, places in sorted(where.items()):
            if len(places) > 1:
                clashes.append(f"{binary}: {key[0]} {key[1]} in " + ", ".join(places))
        for name, targets in sorted(aliases.items()):
            if len({target for target, _ in targets}) > 1:
                clashes.append(f"{binary}: alias {name} to different types in " +
                               ", ".join(place for _, place in sorted(targets)))
    if clashes:
        print("names defined in more than one test file of a unity-batched binary (rename one):")
        for clash in clashes:
            print("  " + clash)
        return 1
    print("ok: no namespace-scope name is defined twice in a unity-batched test binary")
    return 0


if __name__ == "__main__":
    sys.exit(main())
