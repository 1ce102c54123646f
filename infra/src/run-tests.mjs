#!/usr/bin/env node
// `npm test`: builds the web apps when they are not built (browser tests use them), runs every
// test with vitest, and closes with a plain "N passed, N failed" line.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

// Browser tests drive Debian's Chromium. Without it, install it when this process may (root and
// apt), else stop at once with the one command to run, instead of failing every browser test file.
const args = process.argv.slice(2);
const runsBrowserTests = args.filter((a) => !a.startsWith('-')).length === 0 || args.some((a) => a.includes('e2e'));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (runsBrowserTests && !existsSync(chromium)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = existsSync('/usr/bin/apt-get');
  if (isRoot && hasApt && !process.env.CHROMIUM_PATH) {
    console.log(`Browser tests need Chromium (${chromium}); installing Debian's chromium with apt-get …`);
    const install = spawnSync('sh', ['-c', 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium'], { stdio: 'inherit' });
    if (install.status !== 0 || !existsSync(chromium)) {
      console.error('\nChromium could not be installed. Run: sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium binary)');
      process.exit(1);
    }
  } else {
    console.error(
      `Browser tests need Chromium at ${chromium}, and it is not there. Run:\n\n    ${hasApt ? 'sudo apt-get install -y chromium' : 'install Chromium, then: export CHROMIUM_PATH=/path/to/chromium'}\n\n` +
        '(or set CHROMIUM_PATH to a Chromium binary), then npm test again. To run only the other tests: npx vitest run --exclude "e2e/**"',
    );
    process.exit(1);
  }
}
for (const app of ['web-member', 'web-admin']) {
  if (!existsSync(path.join(root, app, 'dist/index.html'))) {
    execSync(`npm run build -w ${app}`, { cwd: root, stdio: 'inherit' });
  }
}
const report = path.join(root, '.vitest-report.json');
rmSync(report, { force: true });
const run = spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args], {
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
