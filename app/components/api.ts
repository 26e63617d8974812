import type { ResourceConfig } from '../resources/types';
import { callUrl } from '../../adapters/dataProvider';

/** Agents are system users of kind fAdmin 2 (userType 2 would list tenants); capped at 999 like the legacy screens. */
export const AGENT_QUERY = { current: 1, size: 999, condition: { fAdmin: 2 } };

/** The permission code of an action, falling back to a known code when the resource file omits it. */
export function permissionOf(config: ResourceConfig, action: string, fallback: string, mode?: 'create' | 'update'): string {
  const value = config.permissions?.[action];
  if (typeof value === 'string') return value;
  if (value && mode) return value[mode];
  return fallback;
}

/** The condition key a list filter on `field` sends, so the resource file stays the single source of truth. */
export function conditionKey(config: ResourceConfig, field: string, fallback: string): string {
  const filter = config.list?.filters?.find((f) => f.field === field || f.fields?.includes(field));
  return filter?.key ?? fallback;
}

/** The default sort of a list as react-admin expects it. */
export function defaultSort(config: ResourceConfig): { field: string; order: 'ASC' | 'DESC' } {
  const first = config.list?.sort?.[0];
  return first ? { field: first.column, order: first.asc ? 'ASC' : 'DESC' } : { field: 'fId', order: 'DESC' };
}

/**
 * Product pictures are stored by name; a full address or an absolute path is used as is, a bare name is
 * looked up under the upload folder the server exposes.
 */
export function imageUrl(name?: string | null): string | null {
  if (!name) return null;
  if (/^(https?:)?\/\//.test(name) || name.startsWith('/') || name.startsWith('data:')) return name;
  return callUrl('upload.pictureFile', { name });
}
