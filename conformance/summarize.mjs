// Summarises one conformance run from the `checks.json` files the suite wrote with `-o DIR`.
//
// usage: node summarize.mjs LABEL DIR [LOG [EXTENSION_PREFIXES [REQUIRED_PREFIXES]]]
//
// A scenario passes when none of its checks is a FAILURE. With LOG (the suite's stdout of a
// `--requirements` run), the scenarios the suite lists under "Not scored for …" are reported
// apart, with their reason (`extension`, `pending`, `added-after-release`). EXTENSION_PREFIXES
// (comma-separated, e.g. `tasks-`) marks scenarios of runs without that list as extensions.
// REQUIRED_PREFIXES (comma-separated, e.g. `tasks-`) names the extension scenarios the server
// implements: they are still reported as extensions, but their failures count.
//
// Prints `LABEL: P/N scored scenarios passed (C checks passed, F failed, W warnings)`, a line for
// the unscored ones, and `  ✗ scenario / CheckName: message` for every failing check of a scored
// or pending scenario (failing extension scenarios are only counted: the extensions are optional).
// Exit code 0 when every scored scenario and every non-extension unscored one passed.

import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const [label, dir, log, prefixes, requiredPrefixes] = process.argv.slice(2);
const required = (name) =>
  (requiredPrefixes ?? '')
    .split(',')
    .filter(Boolean)
    .some((prefix) => name.startsWith(prefix));
if (!label || !dir) {
  console.error('usage: node summarize.mjs LABEL DIR [LOG [EXTENSION_PREFIXES]]');
  process.exit(2);
}

const scenarios = new Map();
for (const entry of readdirSync(dir).sort()) {
  const path = join(dir, entry, 'checks.json');
  if (!existsSync(path)) continue;
  const name = entry.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
  scenarios.set(name, JSON.parse(readFileSync(path, 'utf8')));
}

// "  ✗ tasks-lifecycle (extension)" lines after "Not scored for …".
const unscored = new Map();
let scoredRun = false; // a `--requirements` run, which scores some scenarios only
if (log && existsSync(log)) {
  const text = readFileSync(log, 'utf8');
  const start = text.indexOf('Not scored for');
  if (start >= 0) {
    scoredRun = true;
    for (const line of text.slice(start).split('\n').slice(1)) {
      const m = line.match(/^\s+[✓✗] (\S+) \((.+)\)\s*$/);
      if (!m) break;
      unscored.set(m[1], m[2]);
    }
  }
}

for (const name of scenarios.keys()) {
  for (const prefix of (prefixes ?? '').split(',').filter(Boolean)) {
    if (name.startsWith(prefix) && !unscored.has(name)) unscored.set(name, 'extension');
  }
}

const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
const failures = [];
const tally = new Map(); // group -> [passed, total]
let ok = scenarios.size > 0;
for (const [name, checks] of scenarios) {
  const reason = unscored.get(name);
  const group = reason ?? 'scored';
  const failed = checks.filter((c) => c.status === 'FAILURE');
  const [p, n] = tally.get(group) ?? [0, 0];
  tally.set(group, [p + (failed.length === 0 ? 1 : 0), n + 1]);
  if (reason === 'extension' && !required(name)) continue;
  for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  for (const check of failed) {
    ok = false;
    const tag = reason ? ` [${reason}]` : '';
    failures.push(`  ✗ ${name}${tag} / ${check.name}: ${check.errorMessage ?? check.description}`);
  }
}

const [sp, sn] = tally.get('scored') ?? [0, 0];
const what = scoredRun ? 'scored scenarios' : 'scenarios';
console.log(
  `${label}: ${sp}/${sn} ${what} passed ` +
    `(${counts.SUCCESS} checks passed, ${counts.FAILURE} failed, ${counts.WARNING} warnings, ${counts.SKIPPED} skipped)`,
);
const others = [...tally].filter(([g]) => g !== 'scored').map(([g, [p, n]]) => `${g} ${p}/${n}`);
if (others.length > 0) console.log(`  ${scoredRun ? 'not scored' : 'not required'}, passed: ${others.join(', ')}`);
for (const line of failures) console.log(line);
process.exit(ok ? 0 : 1);
