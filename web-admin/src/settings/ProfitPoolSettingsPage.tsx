import { SettingsCard } from './SettingsCard';
import { CardGrid, SettingsPage } from './SettingsPage';
import { SettingNumberInput, rules } from './inputs';

const card = (name: string) => `pos.settings.cards.${name}`;
const field = (name: string) => `pos.settings.fields.${name}`;

/** /admin/profit-pool-settings: percentage, duration, days offset, required downlines. */
export const ProfitPoolSettingsPage = () => (
  <SettingsPage title="pos.settings.page.profit_pool">
    <CardGrid>
      <SettingsCard title={`${card('profit_pool_percentage')}.title`} help={`${card('profit_pool_percentage')}.help`} fields={['profit_pool_percentage']}>
        <SettingNumberInput source="profit_pool_percentage" label={field('profit_pool_percentage')} unit="percent" validate={rules.percent('profit_number')} />
      </SettingsCard>
      <SettingsCard title={`${card('profit_pool_duration')}.title`} help={`${card('profit_pool_duration')}.help`} fields={['profit_pool_duration']}>
        <SettingNumberInput
          source="profit_pool_duration"
          label={field('profit_pool_duration')}
          unit="months"
          min={1}
          max={12}
          validate={rules.number('profit_number', { min: 1, max: 12, whole: true, rangeMessage: 'duration_range' })}
        />
      </SettingsCard>
      <SettingsCard title={`${card('profit_pool_days_offset')}.title`} help={`${card('profit_pool_days_offset')}.help`} fields={['profit_pool_days_offset']}>
        <SettingNumberInput
          source="profit_pool_days_offset"
          label={field('profit_pool_days_offset')}
          unit="days"
          min={1}
          validate={rules.number('profit_number', { min: 1, whole: true, rangeMessage: 'at_least_one' })}
        />
      </SettingsCard>
      <SettingsCard title={`${card('profit_pool_downlines')}.title`} help={`${card('profit_pool_downlines')}.help`} fields={['profit_pool_num_of_downlines']}>
        <SettingNumberInput
          source="profit_pool_num_of_downlines"
          label={field('profit_pool_num_of_downlines')}
          min={1}
          validate={rules.number('profit_number', { min: 1, whole: true, rangeMessage: 'at_least_one' })}
        />
      </SettingsCard>
    </CardGrid>
  </SettingsPage>
);
