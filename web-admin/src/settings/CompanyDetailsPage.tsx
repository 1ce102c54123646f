import { email, regex } from 'react-admin';
import { SettingsCard } from './SettingsCard';
import { CardGrid, SettingsPage } from './SettingsPage';
import { placementPreferenceLabels, placementPreferences } from '@portal/services/contracts/placement';
import { SettingSelectInput, SettingTextInput, rules } from './inputs';

/** The spillover preferences in the words the member's profile uses (contracts/placement.ts). */
const placementChoices = placementPreferences.map((id) => ({ id, name: placementPreferenceLabels[id] }));

const field = (name: string) => `pos.settings.fields.${name}`;

/**
 * /admin/company-details: the company's phone, e-mail and address, and the company's default
 * placement preference (docs/placement.md). The company bank accounts (the same seed screen's
 * second half) are a resource of their own.
 */
export const CompanyDetailsPage = () => (
  <SettingsPage title="pos.settings.page.company">
    <CardGrid>
      <SettingsCard title="pos.settings.cards.company.title" help="pos.settings.cards.company.help" fields={['company_phone', 'company_email', 'company_address']}>
      <SettingTextInput source="company_phone" label={field('company_phone')} validate={[rules.required(), regex(/^\+?[0-9 ()-]{7,20}$/, rules.key('phone'))]} />
      <SettingTextInput source="company_email" label={field('company_email')} type="email" validate={[rules.required(), email(rules.key('email'))]} />
      <SettingTextInput source="company_address" label={field('company_address')} multiline minRows={2} validate={rules.required()} />
      </SettingsCard>
      <SettingsCard title="pos.settings.cards.default_placement.title" help="pos.settings.cards.default_placement.help" fields={['default_placement_preference']}>
        <SettingSelectInput source="default_placement_preference" label={field('default_placement_preference')} choices={placementChoices} translateChoice={false} validate={rules.required()} />
      </SettingsCard>
    </CardGrid>
  </SettingsPage>
);
