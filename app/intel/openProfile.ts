/**
 * How other screens open a person's holographic profile or call-relation graph: by route, so a name
 * link works from any list (`/hologram?userId=…&phone=…` or `?idcard=…`, `/relation?phone=…`).
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { profileHref, relationHref } from '../../adapters/personal';

export { profileHref, relationHref };

/** `const openProfile = useOpenProfile(); openProfile({ userId, phone })`. */
export function useOpenProfile() {
  const navigate = useNavigate();
  return useCallback((who: { userId?: number | string | null; phone?: string | null; idcard?: string | null }) => navigate(profileHref(who)), [navigate]);
}
