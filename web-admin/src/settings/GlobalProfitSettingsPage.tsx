import { SettingsCard } from './SettingsCard';
import { CardGrid, SettingsPage } from './SettingsPage';
import { SettingNumberInput, SettingSelectInput, rules } from './inputs';

const card = (name: string) => `pos.settings.cards.${name}`;
const field = (name: string) => `pos.settings.fields.${name}`;
const months = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `pos.settings.choices.month.${i + 1}` }));

/** /admin/global-profit-settings: the pool, its two shares and the next share date. */
export const GlobalProfitSettingsPage = () => (
  <SettingsPage title="pos.settings.page.global_profit">
    <CardGrid columns={3}>
      <SettingsCard
        title={`${card('global_profit_amount')}.title`}
        help={`${card('global_profit_amount')}.help`}
        fields={['global_profit_value', 'global_profit_first_percentage', 'global_profit_second_percentage']}
      >
        <SettingNumberInput source="global_profit_value" label={field('global_profit_value')} unit="naira" min={0} validate={rules.number('profit_number', { min: 0 })} />
        <SettingNumberInput source="global_profit_first_percentage" label={field('global_profit_first_percentage')} unit="percent" validate={rules.percent('profit_number')} />
        <SettingNumberInput source="global_profit_second_percentage" label={field('global_profit_second_percentage')} unit="percent" validate={rules.percent('profit_number')} />
      </SettingsCard>
      <SettingsCard title={`${card('global_profit_month')}.title`} help={`${card('global_profit_month')}.help`} fields={['next_global_profit_share_month']}>
        <SettingSelectInput source="next_global_profit_share_month" label={field('next_global_profit_share_month')} choices={months} validate={rules.required()} />
      </SettingsCard>
      <SettingsCard title={`${card('global_profit_day')}.title`} help={`${card('global_profit_day')}.help`} fields={['next_global_profit_share_day']}>
        <SettingNumberInput
          source="next_global_profit_share_day"
          label={field('next_global_profit_share_day')}
          min={1}
          max={31}
          validate={rules.number('profit_number', { min: 1, max: 31, whole: true, rangeMessage: 'day_range' })}
        />
      </SettingsCard>
    </CardGrid>
  </SettingsPage>
);
