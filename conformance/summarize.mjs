// Summarises one conformance run from the `checks.json` files the suite wrote with `-o DIR`.
//
// usage: node summarize.mjs LABEL DIR
//
// Prints one line `LABEL: P/N scenarios passed (C checks passed, F failed, W warnings)` and,
// for every failing check, `  ✗ scenario / CheckName: message`. A scenario passes when none of
// its checks is a FAILURE. Exit code 0 when every scenario passed, 1 otherwise.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [label, dir] = process.argv.slice(2);
if (!label || !dir) {
  console.error('usage: node summarize.mjs LABEL DIR');
  process.exit(2);
}

const scenarios = new Map();
for (const entry of readdirSync(dir).sort()) {
  const path = join(dir, entry, 'checks.json');
  try {
    statSync(path);
  } catch {
    continue;
  }
  const name = entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
  scenarios.set(name, JSON.parse(readFileSync(path, 'utf8')));
}

let passed = 0;
const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
const failures = [];
for (const [name, checks] of scenarios) {
  let ok = true;
  for (const check of checks) {
    counts[check.status] = (counts[check.status] ?? 0) + 1;
    if (check.status === 'FAILURE') {
      ok = false;
      failures.push(`  ✗ ${name} / ${check.name}: ${check.errorMessage ?? check.description}`);
    }
  }
  if (ok) passed += 1;
}

console.log(
  `${label}: ${passed}/${scenarios.size} scenarios passed ` +
    `(${counts.SUCCESS} checks passed, ${counts.FAILURE} failed, ${counts.WARNING} warnings, ${counts.SKIPPED} skipped)`,
);
for (const line of failures) console.log(line);
process.exit(passed === scenarios.size && scenarios.size > 0 ? 0 : 1);
