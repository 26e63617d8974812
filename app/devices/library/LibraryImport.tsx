/**
 * Description import of one library's fields (spec 001 §2.11, §5): a template, an xls/xlsx file up to
 * 100M checked here before it travels, and the server's answer — the count, or every bad row's number
 * and reason (nothing is imported then).
 */
import { useState } from 'react';
import { Button } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError, envelopeText } from '../../../adapters/http';
import { importReportLines } from '../../components/ImportRefusal';
import { SheetImportDialog, type ImportResult } from '../../components/SheetImportDialog';
import { useCan } from '../../auth/useCan';
import { useApi } from '../../components/calls';

/** Spec 001 §9: 100M. */
export const LIBRARY_IMPORT_MAX_BYTES = 100 * 1024 * 1024;

export function LibraryImport({ libraryId }: { libraryId: number }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const refresh = useRefresh();
  const canAdd = useCan('json_conf:add');
  const [open, setOpen] = useState(false);
  if (!canAdd) return null;

  const run = async (file: File): Promise<ImportResult | null> => {
    try {
      const answer = await api.upload('sheet.libraryImport', file, { query: { fProductJsonId: libraryId } });
      refresh();
      return { ok: true, text: envelopeText(answer) };
    } catch (error) {
      // Missing permissions and expired logins are announced by the shell.
      // A refused file: the refusal and every bad row, by code, in the console's language.
      if (!(error instanceof ApiError) || error.status === 200 || error.status === 0) return { ok: false, text: importReportLines(translate, error).join('\n') };
      return null;
    }
  };
  const template = () =>
    api.download('sheet.libraryTemplate', {}, 'library-fields-template.xlsx').catch((e: unknown) => notify(e instanceof Error ? e.message : String(e), { type: 'error' }));

  return (
    <>
      <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setOpen(true)} data-testid="library-import">
        {translate('library.import')}
      </Button>
      <SheetImportDialog open={open} onClose={() => setOpen(false)} ns="library" maxBytes={LIBRARY_IMPORT_MAX_BYTES} onTemplate={() => void template()} onImport={run} testId="library-import" />
    </>
  );
}
