export { ConsumersPage } from './ConsumersPage';
