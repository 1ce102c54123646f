import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DirectDownline, Downline, GenealogyNode, Paged } from '@portal/services/contracts/genealogy';
import { api } from './client';

/**
 * The member's network (seed 000 §2.8, §2.10; docs/genealogy.md). Every path is guarded by
 * requireSelfOrAdmin: a member reads only their own id, so the chart cannot ask for a downline's
 * own genealogy and re-roots inside the tree it already has.
 */
export const genealogyApi = {
  /** The placement tree with the member at the top, `depth` levels (the api holds it to 1..6). */
  genealogy: (memberId: string, depth: number, signal?: AbortSignal) => api.get<GenealogyNode>(`/users/${memberId}/genealogy?depth=${depth}`, { signal }),
  directDownlines: (memberId: string, signal?: AbortSignal) => api.get<DirectDownline[]>(`/users/${memberId}/direct-downlines`, { signal }),
  /** The whole placement downline in tree order, 5 a page. */
  downlines: (memberId: string, page: number, signal?: AbortSignal) => api.get<Paged<Downline>>(`/users/${memberId}/downlines?page=${page}`, { signal }),
};

export const networkKeys = {
  all: (memberId: string) => ['network', memberId] as const,
  genealogy: (memberId: string, depth: number) => ['network', memberId, 'genealogy', depth] as const,
  directDownlines: (memberId: string) => ['network', memberId, 'direct-downlines'] as const,
  downlines: (memberId: string, page: number) => ['network', memberId, 'downlines', page] as const,
};

export const genealogyQuery = (memberId: string, depth: number) =>
  queryOptions({ queryKey: networkKeys.genealogy(memberId, depth), queryFn: async ({ signal }) => (await genealogyApi.genealogy(memberId, depth, signal)).data, staleTime: 60_000 });

export function useGenealogy(memberId: string, depth: number) {
  return useQuery(genealogyQuery(memberId, depth));
}

export const directDownlinesQuery = (memberId: string) =>
  queryOptions({ queryKey: networkKeys.directDownlines(memberId), queryFn: async ({ signal }) => (await genealogyApi.directDownlines(memberId, signal)).data ?? [], staleTime: 60_000 });

export function useDirectDownlines(memberId: string) {
  return useQuery(directDownlinesQuery(memberId));
}

export const downlinesQuery = (memberId: string, page: number) =>
  queryOptions({ queryKey: networkKeys.downlines(memberId, page), queryFn: async ({ signal }) => (await genealogyApi.downlines(memberId, page, signal)).data, staleTime: 60_000 });

export function useDownlines(memberId: string, page: number) {
  return useQuery({ ...downlinesQuery(memberId, page), placeholderData: keepPreviousData });
}
