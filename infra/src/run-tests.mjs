#!/usr/bin/env node
// `npm test`: builds the web apps when they are not built (browser tests use them), runs every
// test with vitest, and closes with a plain "N passed, N failed" line.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
for (const app of ['web-member', 'web-admin']) {
  if (!existsSync(path.join(root, app, 'dist/index.html'))) {
    execSync(`npm run build -w ${app}`, { cwd: root, stdio: 'inherit' });
  }
}
const report = path.join(root, '.vitest-report.json');
rmSync(report, { force: true });
const run = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
let passed = 0;
let failed = 0;
let skipped = 0;
let brokenFiles = 0;
if (existsSync(report)) {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed = result.numPassedTests;
  failed = result.numFailedTests;
  skipped = result.numPendingTests + result.numTodoTests;
  // A file that fails to load or whose hooks fail runs no test, but it is a failure all the same.
  brokenFiles = (result.testResults ?? []).filter((file) => file.status === 'failed' && (file.assertionResults ?? []).every((a) => a.status !== 'failed')).length;
}
console.log(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${brokenFiles ? `, ${brokenFiles} test file(s) failed outside any test` : ''}`);
process.exit(run.status ?? 1);
