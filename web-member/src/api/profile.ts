import { z } from 'zod';
import type { MemberProfile, ProfileDetails } from '@portal/services/contracts/profile';
import { getToken } from '../auth/token';
import { API_BASE, api } from './client';

/**
 * The upline as seed 000 §3 describes it. The api has no upline endpoint yet, so the answer is
 * checked before anything is shown, and nothing is shown when there is none.
 */
export const uplineDetails = z.object({
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  email: z.string().nullish(),
  package: z.union([z.string(), z.object({ name: z.string() })]).nullish(),
  photo_path: z.string().nullish(),
});
export type UplineDetails = z.infer<typeof uplineDetails>;

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
  /** null data: the member has not submitted a profile yet. */
  details: (memberId: string, signal?: AbortSignal) => api.get<ProfileDetails | null>(`/users/${memberId}/profile-details`, { signal }),
  profile: (memberId: string, signal?: AbortSignal) => api.get<MemberProfile>(`/users/${memberId}/profile`, { signal }),
  createProfile: (values: ProfileForm) => api.post<null>('/users/create-profile', profileFormData(values)),
  updateProfile: (memberId: string, values: ProfileForm) => api.post<null>(`/users/${memberId}/update-profile`, profileFormData(values)),
  updateUser: (memberId: string, body: { first_name: string; last_name: string; phone: string }) => api.put<null>(`/users/${memberId}/update`, body),
  updateBankDetails: (memberId: string, body: BankDetailsBody) => api.put<null>(`/users/${memberId}/update-bank-details`, body),
  toggleTwoFactor: (memberId: string, enable: boolean) => api.put<null>(`/users/${memberId}/toggle-2fa`, { enable_2fa: enable }),
  /**
   * Optional, so it bypasses the global handler: no toast, and a refusal here must not end the
   * session. null when the api has no upline to give.
   */
  upline: async (memberId: string, signal?: AbortSignal): Promise<UplineDetails | null> => {
    const token = getToken();
    try {
      const res = await fetch(`${API_BASE}/users/${memberId}/upline-details`, {
        headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        signal,
      });
      if (res.status !== 200) return null;
      const parsed = uplineDetails.safeParse(((await res.json()) as { data?: unknown }).data);
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  },
};
