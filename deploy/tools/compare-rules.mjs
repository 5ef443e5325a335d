// Proves that the PrometheusRule in rendered manifests carries exactly the alert rules of the
// Prometheus rule file (deploy/prometheus/rocewatch-rules.yaml), compared as data: every group,
// rule, expression, duration, label and annotation. Without a rules file the PrometheusRule must
// have no groups.
//
// usage: node compare-rules.mjs RENDERED.yaml RULES.yaml
// Exits 0 when equal, 1 (naming the first difference) otherwise.

import {existsSync, readFileSync} from 'node:fs';
import {isDeepStrictEqual} from 'node:util';
import {parse, parseAllDocuments} from 'yaml';

const [renderedPath, rulesPath] = process.argv.slice(2);
if (!renderedPath || !rulesPath) {
  console.error('usage: compare-rules.mjs RENDERED.yaml RULES.yaml');
  process.exit(2);
}

const rule = parseAllDocuments(readFileSync(renderedPath, 'utf8'))
                 .map((d) => d.toJS())
                 .find((o) => o?.kind === 'PrometheusRule');
if (!rule) {
  console.log(`${renderedPath}: no PrometheusRule`);
  process.exit(1);
}
const expected = existsSync(rulesPath) ? parse(readFileSync(rulesPath, 'utf8')) : {groups: []};

// The first path at which two values differ, for a readable failure.
function firstDifference(a, b, path) {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], `${path}.${key}`);
      if (found) return found;
    }
  }
  return `${path}: PrometheusRule has ${JSON.stringify(a)}, ${rulesPath} has ${JSON.stringify(b)}`;
}

const difference = firstDifference(rule.spec, expected, 'spec');
if (difference) {
  console.log(difference);
  process.exit(1);
}
const count = (expected.groups ?? []).reduce((n, g) => n + (g.rules ?? []).length, 0);
console.log(
    `PrometheusRule equals ${rulesPath}: ${expected.groups?.length ?? 0} groups, ${count} rules`);
