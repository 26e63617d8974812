/**
 * A refused spreadsheet import in the console's language, by code (docs/api.md, "Refusals and
 * notices"): the refusal's own text, then one line per bad row of its `data.rows` (`common.import.row`,
 * the row's reason worded by `reasonText`), and how many more rows were refused than listed. Every import
 * of the console shows its refusal through it (system users, watch-list people, library fields, devices).
 * A legacy backend's refusal has no rows: its message is shown as it came.
 */
import { Alert, Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ApiError, envelopeText, type Envelope } from '../../adapters/http';
import { reasonText } from '../../adapters/i18nProvider';
import { refusedRows, type RowReason } from '../../contract/reasons';

type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface ImportReport {
  /** The refusal's own text (the import failed, the file is too large…). */
  summary: string;
  /** One line per bad row listed: its number, what names it, why. */
  lines: string[];
  /** Bad rows beyond those listed (the server lists the first thousand). */
  more: number;
}

/** One bad row's line. */
export const rowLine = (translate: Translate, row: RowReason): string =>
  row.label ? translate('common.import.rowLabelled', { row: row.row, label: row.label, reason: reasonText(row.reason) }) : translate('common.import.row', { row: row.row, reason: reasonText(row.reason) });

/** What a refused import says: an ApiError of the import's call, or the envelope it answered. */
export function importReport(translate: Translate, refusal: unknown): ImportReport {
  const envelope: Partial<Envelope> | undefined = refusal instanceof ApiError ? refusal.body : refusal instanceof Error ? undefined : (refusal as Partial<Envelope> | undefined);
  const summary = envelope ? envelopeText(envelope) : refusal instanceof Error ? refusal.message : String(refusal ?? '');
  const rows = refusedRows(envelope?.data);
  if (!rows) return { summary, lines: [], more: 0 };
  return { summary, lines: rows.rows.map((r) => rowLine(translate, r)), more: Math.max(0, rows.total - rows.rows.length) };
}

/** The report as lines of text: the summary, the rows, the count of those not listed. */
export function importReportLines(translate: Translate, refusal: unknown): string[] {
  const report = importReport(translate, refusal);
  return [report.summary, ...report.lines, ...(report.more ? [translate('common.import.more', { count: report.more })] : [])];
}

/** The report shown: the summary as an error, the rows listed under it (`data-testid="import-problem"`). */
export function ImportRefusal({ report }: { report: ImportReport }) {
  const translate = useTranslate();
  return (
    <>
      <Alert severity="error" sx={{ mb: 1, whiteSpace: 'pre-wrap' }} data-testid="import-summary">
        {report.summary}
      </Alert>
      {report.lines.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 3 }}>
          {report.lines.map((line, i) => (
            <li key={i} data-testid="import-problem">
              {line}
            </li>
          ))}
          {report.more > 0 && <li data-testid="import-more">{translate('common.import.more', { count: report.more })}</li>}
        </Box>
      )}
    </>
  );
}
