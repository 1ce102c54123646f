import { eventSearchProjection } from './audit/projections';
import { compensationPolicy, walletLedgerProjection } from './compensation/projections';
import type { Consumer } from './core/consumers';
import { genealogyProjection } from './genealogy/projections';
import { awardBonusesPolicy } from './incentives/projections';
import { registrationStatsProjection } from './membership/registration-stats';
import { memberNotificationsPolicy } from './notifications/policy';
import { pointsPolicy } from './points/projections';
import { profitSharingPolicy } from './profit-sharing/projections';
import { stockistStockProjection } from './stockists/projections';

/** Every asynchronous consumer of the log (projections and policies), run by the worker. */
export const consumers: readonly Consumer[] = [compensationPolicy, walletLedgerProjection, registrationStatsProjection, genealogyProjection, pointsPolicy, awardBonusesPolicy, profitSharingPolicy, stockistStockProjection, memberNotificationsPolicy(), eventSearchProjection];
