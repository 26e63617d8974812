/**
 * The holographic profile opened over the page that asks for it (spec 001 §2.1, §2.12): a name in a list
 * or a node's drawer opens the modal in place, without navigating, so closing it (Esc, backdrop) leaves
 * the page as it was — its filters, page and selection. The modal's code loads with the first profile.
 */
import { Suspense, createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { LinkTargets, useLinkTargets, type LinkBy } from '../../components/linkTargets';
import { lazyChunk } from '../../shell/chunks';
import type { ProfileTarget } from './ProfileModal';

const ProfileModal = lazyChunk(() => import('./ProfileModal').then((m) => ({ default: m.ProfileModal })));

const OpenProfile = createContext<(who: ProfileTarget) => void>(() => undefined);

/** `const openProfile = useOpenProfile(); openProfile({ userId, phone })`: the profile over this page. */
export const useOpenProfile = () => useContext(OpenProfile);

export function ProfileOverlay({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<ProfileTarget | null>(null);
  const [used, setUsed] = useState(false);
  const open = useCallback((who: ProfileTarget) => {
    setUsed(true);
    setTarget({ ...who });
  }, []);
  const outer = useLinkTargets();
  const targets = useMemo(
    () => ({ ...outer, profile: (value: unknown, by: LinkBy = 'userId') => open(by === 'userId' ? { userId: Number(value) } : { [by]: String(value) }) }),
    [outer, open],
  );
  return (
    <OpenProfile.Provider value={open}>
      <LinkTargets.Provider value={targets}>
        {children}
        {used && (
          <Suspense fallback={null}>
            <ProfileModal target={target} onClose={() => setTarget(null)} />
          </Suspense>
        )}
      </LinkTargets.Provider>
    </OpenProfile.Provider>
  );
}
