import type { UplineDetails } from '@portal/services/contracts/genealogy';
import type { PlacementPreferenceView } from '@portal/services/contracts/placement';
import type { MemberProfile, ProfileDetails } from '@portal/services/contracts/profile';
import { api } from './client';

export interface BankDetailsBody {
  bank_name: string;
  bank_account_number: string;
  bank_account_name: string;
  bank_code: string;
}

export interface ProfileForm {
  first_name: string;
  last_name: string;
  phone: string;
  gender: string;
  address: string;
  image?: File | null;
}

function profileFormData(values: ProfileForm): FormData {
  const form = new FormData();
  for (const key of ['first_name', 'last_name', 'phone', 'gender', 'address'] as const) form.append(key, values[key]);
  if (values.image) form.append('image', values.image);
  return form;
}

export const profileApi = {
  placementPreference: (memberId: string, signal?: AbortSignal) => api.get<PlacementPreferenceView>(`/users/${memberId}/placement-preference`, { signal }),
  /** null data: the member has not submitted a profile yet. */
  details: (memberId: string, signal?: AbortSignal) => api.get<ProfileDetails | null>(`/users/${memberId}/profile-details`, { signal }),
  profile: (memberId: string, signal?: AbortSignal) => api.get<MemberProfile>(`/users/${memberId}/profile`, { signal }),
  createProfile: (values: ProfileForm) => api.post<null>('/users/create-profile', profileFormData(values)),
  updateProfile: (memberId: string, values: ProfileForm) => api.post<null>(`/users/${memberId}/update-profile`, profileFormData(values)),
  updateUser: (memberId: string, body: { first_name: string; last_name: string; phone: string }) => api.put<null>(`/users/${memberId}/update`, body),
  updateBankDetails: (memberId: string, body: BankDetailsBody) => api.put<null>(`/users/${memberId}/update-bank-details`, body),
  toggleTwoFactor: (memberId: string, enable: boolean) => api.put<null>(`/users/${memberId}/toggle-2fa`, { enable_2fa: enable }),
  /** The sponsor; null for the company root. Quiet: the card is only left out when it cannot load. */
  upline: (memberId: string, signal?: AbortSignal) => api.get<UplineDetails | null>(`/users/${memberId}/upline-details`, { signal, quiet: true }),
};
