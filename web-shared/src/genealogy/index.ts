export { GenealogyChart } from './GenealogyChart';
export { legSlots, LEGS, pathTo, type Leg } from './tree';
