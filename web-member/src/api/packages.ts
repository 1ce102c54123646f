import type { RegistrationPackage } from '@portal/services/contracts/catalogue';
import { api } from './client';

export const packagesApi = {
  all: (signal?: AbortSignal) => api.get<RegistrationPackage[]>('/packages/all', { signal }),
  one: (id: number, signal?: AbortSignal) => api.get<RegistrationPackage>(`/packages/${id}`, { signal }),
};
