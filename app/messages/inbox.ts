/**
 * The logged-in user's unread-message count, shared by the top bar and the message centre: the page
 * sets it from its lists and after each read; a message arriving on the live stream adds one and tells
 * the open page to reload.
 */
import { useEffect, useState } from 'react';
import { call } from '../../adapters/http';

export interface MessageItem {
  msg_id: number;
  title: string;
  create_time: string;
  kind?: string;
}

export interface MessageLists {
  unread: MessageItem[];
  readed: MessageItem[];
  trash: MessageItem[];
  unreadCount: number;
  readedCount: number;
  trashCount: number;
}

export const MESSAGE_PATHS = {
  init: '/message/init',
  content: '/message/content',
  hasRead: '/message/has_read',
  remove: '/message/remove_readed',
  restore: '/message/restore',
};

let unread: number | null = null;
const watchers = new Set<(n: number | null) => void>();

export function setUnread(n: number) {
  unread = Math.max(0, n);
  for (const w of watchers) w(unread);
}

export async function loadLists(): Promise<MessageLists> {
  const lists = (await call<MessageLists>(MESSAGE_PATHS.init, undefined, { method: 'GET', quiet: true })).data;
  setUnread(lists.unreadCount);
  return lists;
}

/** The unread count, loaded when the shell mounts (after each login, for that user). */
export function useUnreadCount(): number | null {
  const [n, setN] = useState<number | null>(null);
  useEffect(() => {
    watchers.add(setN);
    void loadLists().catch(() => undefined);
    return () => {
      watchers.delete(setN);
    };
  }, []);
  return n;
}

/** A message arrived: one more unread. */
export function countArrival() {
  if (unread !== null) setUnread(unread + 1);
  else void loadLists().catch(() => undefined);
}
