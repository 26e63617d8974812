import { useRef, useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Link } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../adapters/http';
import { useCan } from '../auth/useCan';
import { SchemaList } from '../components/SchemaList';
import { FieldValue } from '../components/FieldValue';
import { extensionOf, uploadFile } from '../components/upload/uploadFile';
import type { ResourceConfig } from '../resources/types';

export const TEMPLATE_PATH = '/excel/controlPerson.xlsx';
export const IMPORT_PATH = '/biz/t-control-person/importExcel';
/** Spec 001 §5: xlsx/xls up to 2048 KB. */
const IMPORT_LIMIT_BYTES = 2048 * 1024;

/** Template download and the all-or-nothing Excel import; a refused file lists every bad row. */
function ImportTools() {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[] | null>(null);

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!['xlsx', 'xls'].includes(extensionOf(file.name))) return notify(translate('controlPerson.badFormat'), { type: 'warning' });
    if (file.size > IMPORT_LIMIT_BYTES) return notify(translate('controlPerson.tooLarge'), { type: 'warning' });
    setBusy(true);
    try {
      const envelope = await uploadFile<{ imported: number }>(IMPORT_PATH, file);
      notify(translate('controlPerson.imported', { count: envelope.data.imported }), { type: 'success' });
      refresh();
    } catch (error) {
      if (error instanceof ApiError && error.status !== 200) return;
      const lines = (error instanceof Error ? error.message : String(error)).split('\n');
      setProblems(lines);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outlined" startIcon={<DownloadIcon />} href={TEMPLATE_PATH} download="controlPerson.xlsx" data-testid="control-person-template">
        {translate('controlPerson.template')}
      </Button>
      <Button variant="outlined" startIcon={<UploadFileIcon />} disabled={busy} onClick={() => input.current?.click()} data-testid="control-person-import">
        {translate(busy ? 'controlPerson.importing' : 'controlPerson.import')}
      </Button>
      <input ref={input} type="file" hidden accept=".xlsx,.xls" onChange={(e) => void pick(e.target.files?.[0])} data-testid="control-person-import-file" />
      <Dialog open={problems !== null} onClose={() => setProblems(null)} maxWidth="sm" fullWidth data-testid="control-person-import-result">
        <DialogTitle>{translate('controlPerson.importFailed')}</DialogTitle>
        <DialogContent dividers>
          <Alert severity="error" sx={{ mb: 1 }}>
            {problems?.[0]}
          </Alert>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {problems?.slice(1).map((line) => (
              <li key={line} data-testid="import-problem">
                {line}
              </li>
            ))}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setProblems(null)}>{translate('common.close', { _: 'OK' })}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * The people watch-list (spec 001 §2.6): the generic list with the state switch, masked ID numbers and
 * photos, plus template and import; names open the holographic profile for holders of hologram:sch.
 */
export function ControlPersonList({ config }: { config: ResourceConfig }) {
  const navigate = useNavigate();
  const canProfile = useCan('hologram:sch');
  const canAdd = useCan('controlPerson:add');
  return (
    <SchemaList
      config={config}
      toolbar={canAdd ? <ImportTools /> : undefined}
      cells={
        canProfile
          ? {
              fUserName: (row) =>
                row.fUserIdcard ? (
                  <Link component="button" onClick={() => navigate(`/hologram?idcard=${encodeURIComponent(String(row.fUserIdcard))}`)} data-testid="control-person-profile">
                    <FieldValue field={config.fields.fUserName} row={row} />
                  </Link>
                ) : (
                  <FieldValue field={config.fields.fUserName} row={row} />
                ),
            }
          : undefined
      }
    />
  );
}

export default ControlPersonList;
