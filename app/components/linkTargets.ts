/**
 * What a list's link columns (a resource's `links`) can open without the list component wiring it: the
 * console offers these targets to every list through this context (the profile, `app/security/intel/ProfileOverlay`),
 * so one declaration in a resource file behaves the same on every list.
 */
import { createContext, useContext } from 'react';

/** What a link's id field holds, for a target that opens by more than one key. */
export type LinkBy = 'userId' | 'phone' | 'idcard';
export type LinkTarget = (value: unknown, by?: LinkBy) => void;

export const LinkTargets = createContext<Record<string, LinkTarget>>({});

export const useLinkTargets = () => useContext(LinkTargets);
