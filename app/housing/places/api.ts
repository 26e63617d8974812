/** The place page's calls (by name: the place, room and roomDevice resources) and codes. */
import { ApiError } from '../../../adapters/http';
import type { CallRow } from '../../../adapters/dataProvider';

export const PLACE_CALLS = { list: 'place.list', save: 'place.save', delete: 'place.delete' } as const;
export const ROOM_CALLS = { list: 'room.list', save: 'room.save', delete: 'room.delete' } as const;
export const ROOM_DEVICE_CALLS = { selected: 'roomDevice.selected', unselected: 'roomDevice.unselected', bind: 'roomDevice.bind', unbind: 'roomDevice.unbind' } as const;
export const PLACE_CODES = { list: 'place:list', add: 'place:add', edit: 'place:edit', del: 'place:del' };
export const ROOM_CODES = { add: 'room:add', edit: 'room:edit', del: 'room:del', bind: 'room-device:bind' };
/** Spec 002 §9: the place table shows 10 a page; the rooms modal and the device pickers too. */
export const PAGE_SIZE = 10;
export const ROOM_TYPE_DICTIONARY = 'Room_Type';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The refusals whose own words already say what failed (the place or the room could not be deleted). */
const SAYS_WHAT_FAILED = new Set(['place.hasRooms', 'room.hasDevices']);

/**
 * A refused call's message (already in the console's language, by its code) after the page's failure text
 * `key` (%{message}), or alone when it says itself what failed.
 */
export function failureText(translate: Translate, key: string, failed: { message: string; error?: unknown }): string {
  const code = failed.error instanceof ApiError ? failed.error.code : undefined;
  return code && SAYS_WHAT_FAILED.has(code) ? failed.message : translate(key, { message: failed.message });
}

/** A place, as the place list answers it (with its owner's name and its rooms' and devices' counts). */
export type Place = CallRow<'place.list'>;

/**
 * A room, as the room list answers it. The list also gives each its room type's dictionary entry (`type`,
 * server/housing/room.ts), which the call of a user's rooms declares.
 */
export type Room = CallRow<'room.list'> & { type?: CallRow<'room.userrooms'>['type'] };

