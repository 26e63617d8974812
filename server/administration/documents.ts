/**
 * Help manuals and the other documents (spec 002 §2 item 12–13, §3, §4, §5): one table of typed
 * documents (5 help manual, 4 app help manual, 3 user agreement, 2 privacy policy), rental files and
 * platform documents. Each row carries its status name as the legacy list shows it; the HTML content is
 * sanitised by the CRUD engine (x-format html), not here.
 */
import { label } from '../crud/enums';

type Row = Record<string, unknown>;

/** statusName: the status's words (schemas/enums.json documentStatus). */
export async function afterRead(rows: Row[]) {
  for (const r of rows) r.statusName = label('documentStatus', r.fStatus);
}
