/**
 * The device list's bulk buttons: batch share (device:device-share-more), template and import
 * (device:upload), export (no gate, spec 000 §6) and QR codes of the checked rows.
 */
import { useState } from 'react';
import { Button } from '@mui/material';
import ShareIcon from '@mui/icons-material/Share';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import DownloadIcon from '@mui/icons-material/Download';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import QrCode2Icon from '@mui/icons-material/QrCode2';
import { useNotify, useTranslate } from 'react-admin';
import { useCan } from '../../auth/useCan';
import type { CallName } from '../../../adapters/dataProvider';
import { useApi } from '../../components/calls';
import { ImportDialog } from './ImportDialog';
import { ShareDialog } from './ShareDialog';

export function BulkToolbar({ condition, selected, onImported }: { condition: Record<string, unknown>; selected: number[]; onImported: () => void }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const canShare = useCan('device:device-share-more');
  const canImport = useCan('device:upload');
  const [importing, setImporting] = useState(false);
  const [sharing, setSharing] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);

  const fetchFile = async (key: string, call: CallName, body: unknown, name: string) => {
    setBusy(key);
    try {
      await api.download(call, body, translate(name));
    } catch (e) {
      notify(translate('deviceBulk.downloadFailed', { message: e instanceof Error ? e.message : String(e) }), { type: 'error' });
    } finally {
      setBusy(null);
    }
  };
  const qrcodes = () => {
    if (!selected.length) {
      notify(translate('deviceBulk.noneSelected'), { type: 'warning' });
      return;
    }
    void fetchFile('qrcode', 'device.qrcodes', { fIds: selected }, 'deviceBulk.qrcodeName');
  };

  return (
    <>
      {canShare && (
        <Button variant="outlined" startIcon={<ShareIcon />} onClick={() => setSharing(true)} data-testid="device-share-more">
          {translate('deviceBulk.share')}
        </Button>
      )}
      {canImport && (
        <Button variant="outlined" startIcon={<DownloadIcon />} disabled={busy === 'template'} onClick={() => void fetchFile('template', 'device.template', {}, 'deviceBulk.templateName')} data-testid="device-template">
          {translate('deviceBulk.template')}
        </Button>
      )}
      {canImport && (
        <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setImporting(true)} data-testid="device-import">
          {translate('deviceBulk.import')}
        </Button>
      )}
      <Button variant="outlined" startIcon={<FileDownloadOutlinedIcon />} disabled={busy === 'export'} onClick={() => void fetchFile('export', 'device.export', { condition }, 'deviceBulk.exportName')} data-testid="device-export">
        {translate('deviceBulk.export')}
      </Button>
      <Button variant="outlined" startIcon={<QrCode2Icon />} disabled={busy === 'qrcode'} onClick={qrcodes} data-testid="device-qrcode">
        {translate('deviceBulk.qrcode')}
      </Button>
      <ImportDialog open={importing} onClose={() => setImporting(false)} onImported={onImported} />
      <ShareDialog open={sharing} selected={selected} onClose={() => setSharing(false)} />
    </>
  );
}

export default BulkToolbar;
