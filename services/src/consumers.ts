import { compensationPolicy, walletLedgerProjection } from './compensation/projections';
import type { Consumer } from './core/consumers';
import { genealogyProjection } from './genealogy/projections';
import { registrationStatsProjection } from './membership/registration-stats';

/** Every asynchronous consumer of the log (projections and policies), run by the worker. */
export const consumers: readonly Consumer[] = [compensationPolicy, walletLedgerProjection, registrationStatsProjection, genealogyProjection];
