import { usePermissions } from 'react-admin';

/** Whether the logged-in user holds a permission code (the auth provider's getPermissions gives the codes). */
export function useCan(code: string): boolean {
  const { permissions } = usePermissions<string[]>();
  return Array.isArray(permissions) && permissions.includes(code);
}
