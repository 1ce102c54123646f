import { GenerationTable } from './GenerationTable';
import { SettingsCard } from './SettingsCard';
import { CardGrid, SettingsPage } from './SettingsPage';
import { SettingNumberInput, rules } from './inputs';

const card = (name: string) => `pos.settings.cards.${name}`;
const field = (name: string) => `pos.settings.fields.${name}`;

/** /admin/referral-bonus-settings: the referral table, then the matching and repurchase cards. */
export const ReferralBonusSettingsPage = () => (
  <SettingsPage title="pos.settings.page.referral">
    <GenerationTable kind="referral" />
    <CardGrid>
      <SettingsCard title={`${card('matching_pv')}.title`} help={`${card('matching_pv')}.help`} fields={['matching_bonus_total_pv']}>
        <SettingNumberInput
          source="matching_bonus_total_pv"
          label={field('matching_bonus_total_pv')}
          unit="pv"
          min={1}
          validate={rules.number('profit_number', { min: 1, whole: true, rangeMessage: 'at_least_one' })}
        />
      </SettingsCard>
      <SettingsCard title={`${card('matching_percent')}.title`} help={`${card('matching_percent')}.help`} fields={['matching_bonus_percent']}>
        <SettingNumberInput source="matching_bonus_percent" label={field('matching_bonus_percent')} unit="percent" validate={rules.percent('profit_number')} />
      </SettingsCard>
      <SettingsCard title={`${card('repurchase_percent')}.title`} help={`${card('repurchase_percent')}.help`} fields={['repurchase_bonus_percentage']}>
        <SettingNumberInput source="repurchase_bonus_percentage" label={field('repurchase_bonus_percentage')} unit="percent" validate={rules.percent('profit_number')} />
      </SettingsCard>
      <SettingsCard title={`${card('matching_frequency')}.title`} help={`${card('matching_frequency')}.help`} fields={['matching_bonus_frequency']}>
        <SettingNumberInput
          source="matching_bonus_frequency"
          label={field('matching_bonus_frequency')}
          unit="days"
          min={1}
          validate={rules.number('profit_number', { min: 1, whole: true, rangeMessage: 'at_least_one' })}
        />
      </SettingsCard>
    </CardGrid>
  </SettingsPage>
);

export const UpgradeBonusSettingsPage = () => (
  <SettingsPage title="pos.settings.page.upgrade">
    <GenerationTable kind="upgrade" />
  </SettingsPage>
);

export const UnilevelBonusSettingsPage = () => (
  <SettingsPage title="pos.settings.page.unilevel">
    <GenerationTable kind="unilevel" />
  </SettingsPage>
);

export const StockistUplineBonusSettingsPage = () => (
  <SettingsPage title="pos.settings.page.stockist_upline">
    <GenerationTable kind="stockist_upline" />
  </SettingsPage>
);
