import { afterAll, beforeAll, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { type MemberAppTest, signInAdmin, startMemberApp } from './member-app';
import { closeMatchingCycle } from '../services/src/matching/commands';
let app: MemberAppTest;
beforeAll(async () => { app = await startMemberApp(); }, 60_000);
afterAll(async () => { await app?.close(); });
it('debug widths', async () => {
  await closeMatchingCycle(app.t.runtime.commands, '2026-11-18', app.t.clock.now, { type: 'admin', id: (await app.t.runtime.db.selectFrom('admins').select('id').executeTakeFirstOrThrow()).id });
  const page = await app.newPage();
  await signInAdmin(page, app.base, demoLogins.admin);
  for (const path of ['matching-cycles', 'profit-pool-runs']) {
    await page.goto(`${app.base}/admin/${path}`);
    await page.waitForTimeout(2000);
    const out = await page.evaluate(() => {
      const res: string[] = [`doc ${document.documentElement.scrollWidth}`];
      for (const el of Array.from(document.querySelectorAll('*'))) {
        const r = (el as HTMLElement).getBoundingClientRect();
        if (r.right > 1285 && el.parentElement && el.parentElement.getBoundingClientRect().right <= 1285) res.push(`${el.tagName}.${(el as HTMLElement).className.toString().slice(0, 120)} right=${Math.round(r.right)}`);
      }
      return res.slice(0, 12);
    });
    console.log(path, out.join('\n'));
  }
}, 120_000);
