import { email, regex } from 'react-admin';
import { SettingsCard } from './SettingsCard';
import { CardGrid, SettingsPage } from './SettingsPage';
import { SettingTextInput, rules } from './inputs';

const field = (name: string) => `pos.settings.fields.${name}`;

/**
 * /admin/company-details: the company's phone, e-mail and address. The company bank accounts
 * (the same seed screen's second half) are a resource of their own.
 */
export const CompanyDetailsPage = () => (
  <SettingsPage title="pos.settings.page.company">
    <CardGrid>
      <SettingsCard title="pos.settings.cards.company.title" help="pos.settings.cards.company.help" fields={['company_phone', 'company_email', 'company_address']}>
      <SettingTextInput source="company_phone" label={field('company_phone')} validate={[rules.required(), regex(/^\+?[0-9 ()-]{7,20}$/, rules.key('phone'))]} />
      <SettingTextInput source="company_email" label={field('company_email')} type="email" validate={[rules.required(), email(rules.key('email'))]} />
      <SettingTextInput source="company_address" label={field('company_address')} multiline minRows={2} validate={rules.required()} />
      </SettingsCard>
    </CardGrid>
  </SettingsPage>
);
