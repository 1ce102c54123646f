import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoLogins } from '../services/src/seed/demo-company';
import { transferReference } from '../services/src/contracts/bank-transfer';
import { type MemberAppTest, confirmInDialog, fullShot, phone, receiptImage, shots, signInAdmin, startMemberApp, expectToast } from './member-app';

/**
 * The back office's payment approvals (seed 002 "Transactions screen", Registration History): an
 * admin opens the pending approvals, views a receipt, approves one and declines another with a
 * reason, and sees them leave the pending list; the registrations and upgrades lists; finance staff
 * see the same lists without the approve and decline buttons.
 */
let app: MemberAppTest;
type Member = Awaited<ReturnType<MemberAppTest['http']['registeredMember']>>;
let toApprove: Member;
let toDecline: Member;
let upgraded: Member;
let carder: Member; // clicked Pay on a card payment twice and never paid

async function uploadReceipt(member: Member, description: string) {
  const uploaded = await app.http.upload('POST', '/api/payments/initiate', {
    token: member.token,
    fields: { txn_source: 'package_payment', is_upgrade: 0, meta_data: 2, payment_type: 'pop', amount: 35_000, description },
    files: { payment_receipt: { bytes: receiptImage, filename: 'receipt.png', type: 'image/png' } },
  });
  expect(uploaded.status, uploaded.body.message).toBe(200);
}

beforeAll(async () => {
  // WEB_ADMIN_DIST (a helper's own build) is passed to the app by startMemberApp.
  app = await startMemberApp();
  toApprove = await app.http.registeredMember({ first_name: 'Adaeze', last_name: 'Nwosu' });
  await uploadReceipt(toApprove, 'Bronze registration, transfer from GTBank');
  toDecline = await app.http.registeredMember({ first_name: 'Tunde', last_name: 'Bakare' });
  await uploadReceipt(toDecline, 'Bronze registration');
  upgraded = await app.http.activeMember({ first_name: 'Ngozi', last_name: 'Eze' });
  await app.http.payByReceipt(upgraded, { upgradeTo: 3 });
  carder = await app.http.registeredMember({ first_name: 'Chidi', last_name: 'Cardless' });
  for (let click = 0; click < 2; click++) {
    const started = await app.http.call('POST', '/api/payments/initiate', {
      token: carder.token,
      body: { amount: 35_000, description: 'Bronze registration', txn_source: 'package_payment', is_upgrade: 0, meta_data: 2, payment_type: 'payment_gateway' },
    });
    expect(started.status, started.body.message).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await app?.close();
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') {
    await app.lastPage()?.screenshot({ path: `${shots}/failed-admin-approvals-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true }).catch(() => {});
  }
});

const row = (page: Page, text: string) => page.locator('tbody tr', { hasText: text });

describe('payment approvals', () => {
  it('an admin views a pending receipt, approves it, declines another with a reason, and both leave the pending list', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.getByRole('menuitem', { name: /payment approvals/i }).click();
    await page.waitForURL(/\/admin\/package-payments/);
    await row(page, toApprove.username).waitFor();
    await expect.poll(() => page.getByTestId('count-pending').textContent()).toBe('2');
    await expect.poll(() => row(page, toDecline.username).count()).toBe(1);
    await expect.poll(() => row(page, upgraded.username).count()).toBe(0); // decided payments are not pending
    expect(await row(page, toApprove.username).textContent()).toContain('₦35,000.00');
    // The transfer reference the member was told to use, in the row, to match the bank statement.
    const reference = transferReference('registration', toApprove.username);
    expect(await row(page, toApprove.username).getByTestId('row-transfer-reference').textContent()).toBe(reference);
    await expect.poll(() => row(page, carder.username).count()).toBe(0); // a started card checkout is not pending
    await fullShot(page, 'admin-approvals-pending');

    // View Receipt: the uploaded image with package, amount, description and status.
    await row(page, toApprove.username).getByRole('button', { name: 'View Receipt' }).click();
    const receipt = page.getByRole('dialog', { name: 'View Payment Receipt' });
    await receipt.waitFor();
    await expect.poll(() => receipt.getByTestId('receipt-image').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const details = await receipt.textContent();
    for (const text of ['Bronze', '₦35,000.00', 'Bronze registration, transfer from GTBank', 'Pending']) expect(details).toContain(text);
    expect(await receipt.getByTestId('transfer-reference-value').textContent()).toBe(reference);
    await receipt.getByRole('button', { name: 'Copy transfer reference' }).waitFor();
    await fullShot(page, 'admin-approvals-receipt');
    await receipt.getByRole('button', { name: 'Close' }).click();
    await receipt.waitFor({ state: 'hidden' });

    // Approve, through the confirmation.
    await confirmInDialog(page, { open: () => row(page, toApprove.username).getByRole('button', { name: 'Approve' }).click(), text: 'Confirm Payment Approval', shot: 'admin-approvals-confirm-approve' });
    await expectToast(page, 'Payment approved successfully');
    await expect.poll(() => row(page, toApprove.username).count()).toBe(0);
    await expect.poll(() => page.getByTestId('count-pending').textContent()).toBe('1');
    const me = await app.http.call('GET', '/api/auth/user', { token: toApprove.token });
    expect(me.body.data.payment).toBe('approved');

    // Decline, with the reason the member will see.
    await row(page, toDecline.username).getByRole('button', { name: 'Decline' }).click();
    const decline = page.getByRole('dialog', { name: 'Confirm Payment Decline' });
    await decline.waitFor();
    await decline.getByLabel('Reason for declining').fill('The transfer is not in our account yet.');
    await fullShot(page, 'admin-approvals-confirm-decline');
    await decline.getByRole('button', { name: 'Confirm' }).click();
    await expectToast(page, 'Payment declined successfully');
    await expect.poll(() => row(page, toDecline.username).count()).toBe(0);
    await page.getByText('There are no pending payment approvals').waitFor();
    await fullShot(page, 'admin-approvals-pending-empty');

    // Payment Upload History: both, decided, without the decision buttons.
    await page.getByTestId('tab-history').click();
    await row(page, toApprove.username).waitFor();
    expect(await row(page, toApprove.username).textContent()).toContain('Approved');
    expect(await row(page, toDecline.username).textContent()).toContain('Declined');
    expect(await page.locator('tbody').getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await row(page, toDecline.username).getByRole('button', { name: 'View Receipt' }).click();
    await page.getByRole('dialog', { name: 'View Payment Receipt' }).getByText('The transfer is not in our account yet.').waitFor();
    await page.keyboard.press('Escape');
    await fullShot(page, 'admin-approvals-history');
  });

  it('All Payments hides card checkouts never paid until asked, and shows them muted, labelled, without View Receipt', async () => {
    for (const [options, name] of [
      [{ viewport: { width: 1366, height: 800 } }, 'desktop'],
      [phone, 'phone'],
    ] as const) {
      const page = await app.newPage(options);
      await signInAdmin(page, app.base, demoLogins.admin);
      await page.goto(`${app.base}/admin/package-payments`);
      await page.getByTestId('tab-all').click();
      await row(page, 'Ngozi Eze').first().waitFor(); // by full name: a phone row has no username column
      await expect.poll(() => row(page, 'Chidi Cardless').count()).toBe(0);
      const toggle = page.getByTestId('show-started').locator('input');
      expect(await toggle.isChecked()).toBe(false);
      await page.getByText(/Show card checkouts not paid \(\d+\)/).waitFor();
      await fullShot(page, `admin-approvals-all-${name}`);

      await toggle.click();
      await expect.poll(() => row(page, 'Chidi Cardless').count()).toBe(2);
      for (const attempt of await row(page, 'Chidi Cardless').all()) {
        expect(await attempt.textContent()).toContain('Card checkout started, not paid');
        expect(await attempt.getByRole('button', { name: 'View Receipt' }).count()).toBe(0);
        expect(await attempt.getByRole('button', { name: 'Details' }).count()).toBe(0);
        expect(await attempt.getByTestId('row-transfer-reference').count()).toBe(0);
      }
      // A receipt payment in the same list keeps its View Receipt.
      expect(await row(page, 'Ngozi Eze').first().getByRole('button', { name: 'View Receipt' }).count()).toBeGreaterThan(0);
      await fullShot(page, `admin-approvals-all-started-${name}`);

      // Leaving the tab and coming back hides them again.
      await page.getByTestId('tab-history').click();
      await page.getByTestId('tab-all').click();
      await expect.poll(() => row(page, 'Chidi Cardless').count()).toBe(0);
      await page.context().close();
    }
  });

  it('lists paid registrations with their upgrade history, and the upgrades', async () => {
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.admin);
    await page.goto(`${app.base}/admin/registrations`);
    await row(page, upgraded.username).waitFor();
    expect(await row(page, upgraded.username).textContent()).toContain('Ngozi Eze');
    expect(await row(page, toDecline.username).count()).toBe(0);
    await fullShot(page, 'admin-approvals-registrations');
    await row(page, upgraded.username).getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('dialog', { name: /User Upgrade History/ });
    await history.locator('tbody tr', { hasText: 'Silver' }).waitFor();
    expect(await history.textContent()).toContain('₦35,000.00');
    await fullShot(page, 'admin-approvals-upgrade-history');
    await page.keyboard.press('Escape');

    await page.goto(`${app.base}/admin/upgrades`);
    await row(page, upgraded.username).waitFor();
    const text = await row(page, upgraded.username).textContent();
    expect(text).toContain('Bronze');
    expect(text).toContain('Silver');
    await fullShot(page, 'admin-approvals-upgrades');
  });

  it('finance staff read the approvals without approve or decline buttons', async () => {
    const pending = await app.http.registeredMember({ first_name: 'Kemi', last_name: 'Finance' });
    await uploadReceipt(pending, 'Waiting for finance to look');
    const page = await app.newPage();
    await signInAdmin(page, app.base, demoLogins.finance);
    await page.goto(`${app.base}/admin/package-payments`);
    await row(page, pending.username).waitFor();
    expect(await row(page, pending.username).getByRole('button', { name: 'View Receipt' }).count()).toBe(1);
    expect(await row(page, pending.username).getByRole('button', { name: /approve|decline/i }).count()).toBe(0);
    await fullShot(page, 'admin-approvals-finance');
  });
});
