import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../../test/app';
import { settleConsumers } from '../../test/consumers';
import { httpHelpers } from '../../test/http';
import { readModels } from '../read-models';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

let t: TestApp;
let memberId: string;

/** `npm run rebuild -- …` as an operator runs it (without npm, so its own exit code comes back), on this file's database. */
function rebuildCli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'services/src/worker/rebuild-cli.ts'), ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: t.database.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

beforeAll(async () => {
  t = await createTestApp();
  const h = httpHelpers(t);
  const sponsor = await h.activeMember({ referrer: 'herbalhq' }, { asParent: true });
  memberId = (await h.activeMember({ referrer: sponsor.username })).id;
  await settleConsumers(t.runtime.db);
});
afterAll(async () => t.close());

describe('npm run rebuild', () => {
  it('--list names every read model with its tables', async () => {
    const listed = await rebuildCli('--list');
    expect(listed.code).toBe(0);
    for (const model of readModels) expect(listed.stdout).toContain(`${model.name}`);
    expect(listed.stdout).toMatch(/^members +inline +members, daily_member_totals$/m);
    expect(listed.stdout).toMatch(/^wallet-ledger +projection +wallet_entries, wallets, daily_bonus_totals$/m);
  });

  it('refuses an unknown name with the list of names (exit 2)', async () => {
    const refused = await rebuildCli('membrs');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('No read model is called "membrs". The read models: members, member-profiles');
  });

  it('--check all finds every read model equal; a damaged one is named and rebuilding it repairs it', async () => {
    const checked = await rebuildCli('all', '--check');
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    for (const model of readModels) expect(checked.stdout).toMatch(new RegExp(`^${model.name} +\\d+ events +equal to the live tables$`, 'm'));

    const before = await t.runtime.db.selectFrom('members').selectAll().where('id', '=', memberId).executeTakeFirstOrThrow();
    await t.runtime.db.updateTable('members').set({ personal_pv: 9_999 }).where('id', '=', memberId).execute();
    const damaged = await rebuildCli('members', '--check');
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toMatch(/^members +\d+ events +DIFFERS: members \(1 rows only live, 1 only rebuilt\)$/m);

    const repaired = await rebuildCli('members');
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toMatch(/^members +\d+ events +swapped in; corrected members: 1 rows replaced or removed, 1 written$/m);
    expect(await t.runtime.db.selectFrom('members').selectAll().where('id', '=', memberId).executeTakeFirstOrThrow()).toEqual(before);
  }, 120_000); // three processes, each starting tsx

  it('all rebuilds and swaps in every read model, inline and asynchronous', async () => {
    const rebuilt = await rebuildCli('all');
    expect(rebuilt.stderr).toBe('');
    expect(rebuilt.code).toBe(0);
    for (const model of readModels) {
      const done = model.kind === 'projection' ? 'swapped in' : 'swapped in; the live tables were already right';
      expect(rebuilt.stdout).toMatch(new RegExp(`^${model.name} +\\d+ events +${done}$`, 'm'));
    }
  }, 60_000);
});
