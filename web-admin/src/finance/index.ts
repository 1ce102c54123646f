export { CompanyFinance } from './CompanyFinance';
