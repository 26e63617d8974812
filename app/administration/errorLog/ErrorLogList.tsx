/**
 * The error logger (spec 002 §2.17): the declared list of captured console errors (type, code,
 * message, address, time) with its filters, read-only, and a CSV export of what the filters show.
 */
import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotify, useTranslate } from 'react-admin';
import { SchemaList } from '../../components/SchemaList';
import type { ResourceConfig } from '../../resources/types';
import { ApiError } from '../../../adapters/http';
import { useApi } from '../../components/calls';

export function ErrorLogList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const [filter, setFilter] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    try {
      await api.download('errorLog.export', { condition: filter }, `error-log-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (error) {
      notify(error instanceof ApiError ? error.message : 'errorLog.exportFailed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <SchemaList
      config={config}
      readOnly
      onFilterChange={setFilter}
      toolbar={
        <Button variant="outlined" startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />} onClick={exportCsv} disabled={busy} data-testid="error-log-export">
          {translate('errorLog.exportCsv')}
        </Button>
      }
    />
  );
}

export default ErrorLogList;
