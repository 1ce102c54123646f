/**
 * Standalone Paystack stand-in: `npx tsx infra/src/paystack-standin-cli.ts`
 * Env: PAYSTACK_STANDIN_PORT (default 4010), PAYSTACK_STANDIN_HOST (default 127.0.0.1),
 * PAYSTACK_WEBHOOK_URL (default http://127.0.0.1:3000/api/payments/webhook),
 * PAYSTACK_SECRET_KEY (default: the api's development default), PAYSTACK_STANDIN_PUBLIC_URL (optional).
 */
import { TEST_CARD } from './paystack-checkout-page';
import { startPaystackStandin } from './paystack-standin';

const port = Number(process.env.PAYSTACK_STANDIN_PORT || 4010);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PAYSTACK_STANDIN_PORT must be a port number (0-65535), got ${JSON.stringify(process.env.PAYSTACK_STANDIN_PORT)}`);
  process.exit(2);
}
const webhookUrl = process.env.PAYSTACK_WEBHOOK_URL || 'http://127.0.0.1:3000/api/payments/webhook';

const standin = await startPaystackStandin({
  port,
  host: process.env.PAYSTACK_STANDIN_HOST || '127.0.0.1',
  secretKey: process.env.PAYSTACK_SECRET_KEY || undefined,
  publicUrl: process.env.PAYSTACK_STANDIN_PUBLIC_URL || undefined,
  webhookTarget: webhookUrl,
}).catch((error: NodeJS.ErrnoException) => {
  console.error(error.code === 'EADDRINUSE' ? `Port ${port} is in use. Set PAYSTACK_STANDIN_PORT to a free port.` : `Could not start: ${error.message}`);
  process.exit(1);
});

console.log(`Paystack stand-in running
  API:      ${standin.url}   (PAYSTACK_BASE_URL; Authorization: Bearer ${standin.secretKey})
  Webhooks: ${webhookUrl}
  Test card ${TEST_CARD.number}, expiry ${TEST_CARD.expiry}, CVV ${TEST_CARD.cvv} (prefilled on the checkout page)
Ctrl-C to stop.`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    void standin.close().then(() => process.exit(0));
  });
}
