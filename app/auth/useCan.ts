import { usePermissions } from 'react-admin';

/** Whether the logged-in user holds a permission code (the auth provider's getPermissions gives the codes). */
export function useCan(code: string): boolean {
  const { permissions } = usePermissions<string[]>();
  return Array.isArray(permissions) && permissions.includes(code);
}

/** Which of a page's permission codes, by name (list, add, edit, …), the logged-in user holds. */
export function useCans<K extends string>(codes: Record<K, string>): Record<K, boolean> {
  const { permissions } = usePermissions<string[]>();
  const held = Array.isArray(permissions) ? permissions : [];
  return Object.fromEntries(Object.entries<string>(codes).map(([name, code]) => [name, held.includes(code)])) as Record<K, boolean>;
}
