/**
 * The logged-in user's unread-message count, shared by the top bar and the message centre: the page
 * sets it from its lists and after each read; a message arriving on the live stream adds one and tells
 * the open page to reload.
 */
import { useEffect, useState } from 'react';
import type { CallAnswer, LegacyDataProvider } from '../../../adapters/dataProvider';
import { useApi } from '../../components/calls';

/** The three lists and their counts, as resources/calls/message.json declares the answer. */
export type MessageLists = CallAnswer<'message.lists'>;
export type MessageItem = MessageLists['unread'][number];

let unread: number | null = null;
const watchers = new Set<(n: number | null) => void>();

export function setUnread(n: number) {
  unread = Math.max(0, n);
  for (const w of watchers) w(unread);
}

/** The three lists (message.lists, asked with GET as the legacy viewer does), and the unread count from them. */
export async function loadLists(api: LegacyDataProvider): Promise<MessageLists> {
  const lists = (await api.call('message.lists', undefined, { method: 'GET', quiet: true })).data;
  setUnread(lists.unreadCount);
  return lists;
}

/** The unread count, loaded when the shell mounts (after each login, for that user). */
export function useUnreadCount(): number | null {
  const api = useApi();
  const [n, setN] = useState<number | null>(null);
  useEffect(() => {
    watchers.add(setN);
    void loadLists(api).catch(() => undefined);
    return () => {
      watchers.delete(setN);
    };
  }, [api]);
  return n;
}

/** A message arrived: one more unread. */
export function countArrival(api: LegacyDataProvider) {
  if (unread !== null) setUnread(unread + 1);
  else void loadLists(api).catch(() => undefined);
}
