// Summarises one conformance run from the `checks.json` files the suite wrote with `-o DIR`.
//
// usage: node summarize.mjs --label LABEL --dir DIR --expect N [--log LOG]
//                           [--extensions PREFIXES] [--required PREFIXES] [--substantive PREFIXES]
//
// Every directory the suite made for a scenario (`[server-]NAME-<ISO time>`, nested ones such as
// `auth/NAME-<time>` included) is a scenario of the run. A scenario passes when it has a
// `checks.json` and none of its checks is a FAILURE; one without `checks.json` (its run crashed,
// or it never ran) is a failure. The run must have exactly N scenarios (the count pinned by the
// caller), and with LOG the suite's own announced count (`Running … (N scenarios)`) must be N too:
// a scenario that disappeared, or one that appeared, fails the run.
//
// With LOG (the suite's stdout) the scenarios a `--requirements` run lists under "Not scored for …"
// are reported apart, with their reason (`extension`, `pending`, `added-after-release`).
// --extensions (comma-separated prefixes, e.g. `tasks-`) marks scenarios of runs without that
// list as extensions. --required (prefixes) names the extension scenarios the server implements:
// they are still reported as extensions, but their failures count. --substantive (prefixes)
// names scenarios whose checks must run: each gets a line with its passed/failed/skipped counts,
// and one that passed with only skipped checks fails the run, as does a prefix no scenario of
// the run matches (the skills scenarios pass vacuously against a server without skills).
//
// Prints `LABEL: P/N scored scenarios passed (C checks passed, F failed, W warnings, S skipped)`,
// a line for the unscored ones, a line naming the scenarios that passed with only skipped checks
// (they tested nothing), and `  ✗ scenario / CheckName: message` for every failing check of a
// scored or pending scenario (failing optional-extension scenarios are only counted).
// Exit code 0 when the count is right and every scored scenario, every non-extension unscored
// one and every required extension one passed; 1 otherwise; 2 on bad usage.

import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

// `NAME-2026-01-02T03-04-05-678Z`: a directory the suite made for one scenario.
const STAMP = /-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

const prefixed = (prefixes) => (name) =>
  (prefixes ?? '')
    .split(',')
    .filter(Boolean)
    .some((prefix) => name.startsWith(prefix));

// Scenario directories under DIR: name -> checks (or null when there is no checks.json).
function scenarioDirs(dir, prefix = '', into = new Map()) {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (!statSync(path).isDirectory()) continue;
    if (STAMP.test(entry)) {
      const name = prefix + entry.replace(/^server-/, '').replace(STAMP, '');
      const file = join(path, 'checks.json');
      into.set(name, existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);
    } else {
      scenarioDirs(path, `${prefix}${entry}/`, into);
    }
  }
  return into;
}

/// Summarises one run: `{ ok, lines }` (the lines as printed).
export function summarize({ label, dir, expect, log, extensions, required, substantive }) {
  const lines = [];
  const problems = [];
  const isExtension = prefixed(extensions);
  const isRequired = prefixed(required);
  const isSubstantive = prefixed(substantive);
  const scenarios = existsSync(dir) ? scenarioDirs(dir) : new Map();

  // The suite's announced count, and "  ✗ tasks-lifecycle (extension)" lines after "Not scored for …".
  const unscored = new Map();
  let scoredRun = false; // a `--requirements` run, which scores some scenarios only
  if (log !== undefined) {
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    const announced = text.match(/^Running .* \((\d+) scenarios\)/m);
    if (!announced) problems.push(`  ✗ the log ${log} does not say how many scenarios ran`);
    else if (Number(announced[1]) !== expect)
      problems.push(`  ✗ the suite ran ${announced[1]} scenarios, ${expect} expected`);
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
  if (scenarios.size !== expect)
    problems.push(`  ✗ ${scenarios.size} scenarios have results in ${dir}, ${expect} expected`);
  for (const name of scenarios.keys()) {
    if (isExtension(name) && !unscored.has(name)) unscored.set(name, 'extension');
  }

  const counts = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
  const failures = [];
  const vacuous = [];
  const counted = []; // the substantive scenarios' lines
  const tally = new Map(); // group -> [passed, total]
  for (const [name, checks] of scenarios) {
    const reason = unscored.get(name);
    const group = reason ?? 'scored';
    const optional = reason === 'extension' && !isRequired(name);
    const tag = reason ? ` [${reason}]` : '';
    const failed = checks === null ? [] : checks.filter((c) => c.status === 'FAILURE');
    const passed = checks !== null && failed.length === 0;
    const [p, n] = tally.get(group) ?? [0, 0];
    tally.set(group, [p + (passed ? 1 : 0), n + 1]);
    const empty = passed && !checks.some((c) => c.status === 'SUCCESS');
    if (empty) vacuous.push(`${name}${tag}`);
    if (isSubstantive(name)) {
      const n = (status) => (checks ?? []).filter((c) => c.status === status).length;
      counted.push(`  ${name}: ${n('SUCCESS')} passed, ${n('FAILURE')} failed, ${n('SKIPPED')} skipped`);
      if (empty) failures.push(`  ✗ ${name}${tag}: every check was skipped, so nothing was tested (its checks must run)`);
    }
    if (optional) continue;
    if (checks === null) {
      failures.push(`  ✗ ${name}${tag}: no checks.json (the scenario crashed or did not run)`);
      continue;
    }
    for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
    for (const check of failed) {
      failures.push(`  ✗ ${name}${tag} / ${check.name}: ${check.errorMessage ?? check.description}`);
    }
  }

  const [sp, sn] = tally.get('scored') ?? [0, 0];
  const what = scoredRun ? 'scored scenarios' : 'scenarios';
  lines.push(
    `${label}: ${sp}/${sn} ${what} passed ` +
      `(${counts.SUCCESS} checks passed, ${counts.FAILURE} failed, ${counts.WARNING} warnings, ${counts.SKIPPED} skipped)`,
  );
  const others = [...tally].filter(([g]) => g !== 'scored').map(([g, [p, n]]) => `${g} ${p}/${n}`);
  if (others.length > 0) lines.push(`  ${scoredRun ? 'not scored' : 'not required'}, passed: ${others.join(', ')}`);
  if (vacuous.length > 0) lines.push(`  passed with only skipped checks (nothing tested): ${vacuous.join(', ')}`);
  for (const prefix of (substantive ?? '').split(',').filter(Boolean)) {
    if (![...scenarios.keys()].some((name) => name.startsWith(prefix)))
      problems.push(`  ✗ no scenario of the run starts with ${prefix}, whose checks must run`);
  }
  lines.push(...counted, ...problems, ...failures);
  return { ok: problems.length === 0 && failures.length === 0, lines };
}

function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        label: { type: 'string' },
        dir: { type: 'string' },
        expect: { type: 'string' },
        log: { type: 'string' },
        extensions: { type: 'string' },
        required: { type: 'string' },
        substantive: { type: 'string' },
      },
    }));
  } catch (e) {
    values = { error: e.message };
  }
  const expect = Number(values.expect);
  if (values.error || !values.label || !values.dir || !Number.isInteger(expect) || expect < 1) {
    if (values.error) console.error(values.error);
    console.error(
      'usage: node summarize.mjs --label LABEL --dir DIR --expect N [--log LOG] [--extensions PREFIXES] [--required PREFIXES] [--substantive PREFIXES]',
    );
    process.exit(2);
  }
  const { ok, lines } = summarize({ ...values, expect });
  for (const line of lines) console.log(line);
  process.exit(ok ? 0 : 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
