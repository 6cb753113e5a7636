// Tests of summarize.mjs against fixture result directories (node:test; run by conformance/run.sh
// before the suites, or alone: node --test conformance/summarize.test.mjs).
//
// fixtures/crashed/ is a run of three scenarios as the suite leaves it: `ping` passed,
// `tools-list` crashed (its directory has no checks.json), `tasks-status-notifications` passed
// with only a skipped check; run.log announces the three.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

import { summarize } from './summarize.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const crashed = join(here, 'fixtures', 'crashed');
const CRASHED_DIR = 'server-tools-list-2026-01-02T03-04-05-901Z';

// A copy of the fixture to alter; removed after the test.
function copy(t) {
  const dir = mkdtempSync(join(tmpdir(), 'summarize-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(crashed, dir, { recursive: true });
  return dir;
}

const checks = (status) =>
  JSON.stringify([{ id: 'x', name: 'ToolsList', description: 'lists tools', status, errorMessage: 'no tools' }]);

test('a crashed scenario (no checks.json) fails the tally', () => {
  const { ok, lines } = summarize({ label: 'fixture', dir: crashed, log: join(crashed, 'run.log'), expect: 3 });
  assert.equal(ok, false);
  assert.deepEqual(lines, [
    'fixture: 2/3 scenarios passed (1 checks passed, 0 failed, 0 warnings, 1 skipped)',
    '  passed with only skipped checks (nothing tested): tasks-status-notifications',
    '  ✗ tools-list: no checks.json (the scenario crashed or did not run)',
  ]);
});

test('the command line exits 1 on the crashed fixture and prints the crash', () => {
  let status = 0;
  let stdout = '';
  try {
    execFileSync(process.execPath, [
      join(here, 'summarize.mjs'),
      '--label', 'fixture',
      '--dir', crashed,
      '--log', join(crashed, 'run.log'),
      '--expect', '3',
    ]);
  } catch (e) {
    status = e.status;
    stdout = e.stdout.toString();
  }
  assert.equal(status, 1);
  assert.match(stdout, /^ {2}✗ tools-list: no checks\.json \(the scenario crashed or did not run\)$/m);
});

test('the same run with the scenario repaired passes, the skipped-only one reported', (t) => {
  const dir = copy(t);
  writeFileSync(join(dir, CRASHED_DIR, 'checks.json'), checks('SUCCESS'));
  const { ok, lines } = summarize({ label: 'fixture', dir, log: join(dir, 'run.log'), expect: 3 });
  assert.equal(ok, true);
  assert.deepEqual(lines, [
    'fixture: 3/3 scenarios passed (2 checks passed, 0 failed, 0 warnings, 1 skipped)',
    '  passed with only skipped checks (nothing tested): tasks-status-notifications',
  ]);
});

test('a missing scenario fails: fewer results than pinned, and fewer than the suite announced', (t) => {
  const dir = copy(t);
  rmSync(join(dir, CRASHED_DIR), { recursive: true });
  const pinned = summarize({ label: 'fixture', dir, log: join(dir, 'run.log'), expect: 3 });
  assert.equal(pinned.ok, false);
  assert.deepEqual(pinned.lines.slice(2), [`  ✗ 2 scenarios have results in ${dir}, 3 expected`]);
  // Pinned at 2, the suite's own count (3) still disagrees.
  const announced = summarize({ label: 'fixture', dir, log: join(dir, 'run.log'), expect: 2 });
  assert.equal(announced.ok, false);
  assert.deepEqual(announced.lines.slice(2), ['  ✗ the suite ran 3 scenarios, 2 expected']);
});

test('a log without the announced count fails', (t) => {
  const dir = copy(t);
  writeFileSync(join(dir, CRASHED_DIR, 'checks.json'), checks('SUCCESS'));
  writeFileSync(join(dir, 'run.log'), 'Server test error: connection refused\n');
  const { ok, lines } = summarize({ label: 'fixture', dir, log: join(dir, 'run.log'), expect: 3 });
  assert.equal(ok, false);
  assert.deepEqual(lines.slice(2), [`  ✗ the log ${join(dir, 'run.log')} does not say how many scenarios ran`]);
});

test('a failing check fails the run and is listed', (t) => {
  const dir = copy(t);
  writeFileSync(join(dir, CRASHED_DIR, 'checks.json'), checks('FAILURE'));
  const { ok, lines } = summarize({ label: 'fixture', dir, log: join(dir, 'run.log'), expect: 3 });
  assert.equal(ok, false);
  assert.deepEqual(lines, [
    'fixture: 2/3 scenarios passed (1 checks passed, 1 failed, 0 warnings, 1 skipped)',
    '  passed with only skipped checks (nothing tested): tasks-status-notifications',
    '  ✗ tools-list / ToolsList: no tools',
  ]);
});

test('an optional extension may crash; a required one may not', (t) => {
  const dir = copy(t);
  const optional = summarize({ label: 'fixture', dir, expect: 3, extensions: 'tools-' });
  assert.equal(optional.ok, true);
  assert.deepEqual(optional.lines, [
    'fixture: 2/2 scenarios passed (1 checks passed, 0 failed, 0 warnings, 1 skipped)',
    '  not required, passed: extension 0/1',
    '  passed with only skipped checks (nothing tested): tasks-status-notifications',
  ]);
  const required = summarize({ label: 'fixture', dir, expect: 3, extensions: 'tools-', required: 'tools-' });
  assert.equal(required.ok, false);
  assert.deepEqual(required.lines.slice(3), ['  ✗ tools-list [extension]: no checks.json (the scenario crashed or did not run)']);
});

test('nested scenario directories (the client suite\'s auth/) are scenarios of the run', (t) => {
  const dir = copy(t);
  writeFileSync(join(dir, CRASHED_DIR, 'checks.json'), checks('SUCCESS'));
  mkdirSync(join(dir, 'auth', 'scope-step-up-2026-01-02T03-04-07-000Z'), { recursive: true });
  const { ok, lines } = summarize({ label: 'fixture', dir, expect: 4 });
  assert.equal(ok, false);
  assert.deepEqual(lines.slice(2), ['  ✗ auth/scope-step-up: no checks.json (the scenario crashed or did not run)']);
});

test('a substantive scenario with only skipped checks fails, and its counts are printed', (t) => {
  const dir = copy(t);
  writeFileSync(join(dir, CRASHED_DIR, 'checks.json'), checks('SUCCESS'));
  const run = (substantive) => summarize({ label: 'fixture', dir, log: join(dir, 'run.log'), expect: 3, substantive });
  const vacuous = run('tasks-status');
  assert.equal(vacuous.ok, false);
  assert.deepEqual(vacuous.lines.slice(2), [
    '  tasks-status-notifications: 0 passed, 0 failed, 1 skipped',
    '  ✗ tasks-status-notifications: every check was skipped, so nothing was tested (its checks must run)',
  ]);
  const tested = run('tools-');
  assert.equal(tested.ok, true);
  assert.deepEqual(tested.lines.slice(2), ['  tools-list: 1 passed, 0 failed, 0 skipped']);
  const absent = run('sep-2640-');
  assert.equal(absent.ok, false);
  assert.deepEqual(absent.lines.slice(2), ['  ✗ no scenario of the run starts with sep-2640-, whose checks must run']);
});
