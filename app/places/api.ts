/** The place page's calls (paths from the resource files) and codes. */
import { endpoints } from '../../adapters/generated/endpoints';
import { readBack, type ServerText } from '../components/serverText';
import texts from './messages';

export const PLACE_PATHS = endpoints.place;
export const ROOM_PATHS = endpoints.room;
export const ROOM_DEVICE_PATHS = endpoints.roomDevice;
export const PLACE_CODES = { list: 'place:list', add: 'place:add', edit: 'place:edit', del: 'place:del' };
export const ROOM_CODES = { add: 'room:add', edit: 'room:edit', del: 'room:del', bind: 'room-device:bind' };
/** Spec 002 §9: the place table shows 10 a page; the rooms modal and the device pickers too. */
export const PAGE_SIZE = 10;
export const ROOM_TYPE_DICTIONARY = 'Room_Type';

const refusal = readBack(texts['zh-CN'].places.refusals, 'places.refusals');
/** A refusal's reason in the console's language, without the failure text the server puts before it ("场所删除失败："). */
export const placeRefusal: ServerText = (translate, text) => refusal(translate, text?.replace(/^[^:：]*失败[:：]/, ''));

export interface Place {
  fId: number;
  fName: string;
  fUserId?: number | null;
  ownerName?: string | null;
  fCityCode?: string | null;
  fCityName?: string | null;
  roomCount?: number;
  deviceCount?: number;
}

export interface Room {
  fId: number;
  fName: string;
  fHomeId: number;
  fUserId?: number | null;
  fType?: number | null;
  type?: { fContent?: string } | null;
  deviceCount?: number;
}

export interface Page<T> {
  records: T[];
  total: number;
}
