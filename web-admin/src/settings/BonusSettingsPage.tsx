import { SettingsCard } from './SettingsCard';
import { CardGrid, SettingsPage } from './SettingsPage';
import { SettingNumberInput, rules } from './inputs';

const card = (name: string) => `pos.settings.cards.${name}`;
const field = (name: string) => `pos.settings.fields.${name}`;

/** /admin/bonus-settings: the single-value bonus percentages (seed 002 "Bonus Settings screen"). */
export const BonusSettingsPage = () => (
  <SettingsPage title="pos.settings.page.bonus">
    <CardGrid>
      <SettingsCard title={`${card('matching')}.title`} help={`${card('matching')}.help`} fields={['equillibrum_bonus']}>
        <SettingNumberInput
          source="equillibrum_bonus"
          label={field('equillibrum_bonus')}
          unit="percent"
          min={1}
          validate={rules.number('bonus_number', { min: 1, max: 100, minMessage: 'equilibrium_min', maxMessage: 'percent_range' })}
        />
      </SettingsCard>
      <SettingsCard title={`${card('repurchase')}.title`} help={`${card('repurchase')}.help`} fields={['loyalty_bonus_percentage']}>
        <SettingNumberInput source="loyalty_bonus_percentage" label={field('loyalty_bonus_percentage')} unit="percent" validate={rules.percent('bonus_number')} />
      </SettingsCard>
      <SettingsCard title={`${card('welcome')}.title`} help={`${card('welcome')}.help`} fields={['welcome_bonus_percentage']}>
        <SettingNumberInput source="welcome_bonus_percentage" label={field('welcome_bonus_percentage')} unit="percent" validate={rules.percent('bonus_number')} />
      </SettingsCard>
      <SettingsCard title={`${card('placement')}.title`} help={`${card('placement')}.help`} fields={['placement_bonus_percentage']}>
        <SettingNumberInput source="placement_bonus_percentage" label={field('placement_bonus_percentage')} unit="percent" validate={rules.percent('bonus_number')} />
      </SettingsCard>
    </CardGrid>
  </SettingsPage>
);
