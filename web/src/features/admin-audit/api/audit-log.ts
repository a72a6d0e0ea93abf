import { keepPreviousData, useQuery } from "@/lib/query";
import type { AuditEntry, AuditQuery } from "@contracts/team";
import { api } from "@/lib/api-client";

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  page: number;
  pageSize: number;
  /** Every action recorded so far, for the filter. */
  actions: string[];
}

/** The filters as the query string the list and the CSV export share (empty ones left out). */
export function auditSearch(query: AuditQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function auditCsvUrl(query: Omit<AuditQuery, "page">): string {
  return `/api/admin/audit-log.csv${auditSearch(query)}`;
}

export function getAuditLog(query: AuditQuery): Promise<AuditPage> {
  return api.get<AuditPage>(`/api/admin/audit-log${auditSearch(query)}`);
}

/** One page of 50 entries, newest first; the page shown stays while the next one loads. */
export function useAuditLog(query: AuditQuery) {
  return useQuery({ queryKey: ["admin", "audit-log", query], queryFn: () => getAuditLog(query), placeholderData: keepPreviousData });
}
