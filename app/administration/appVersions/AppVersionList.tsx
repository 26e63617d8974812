import { useRef, useState } from 'react';
import { Box, Button, FormHelperText, FormLabel, LinearProgress, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/UploadFile';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import type { FieldInputProps } from '../../components/FieldInput';
import { SchemaList } from '../../components/SchemaList';
import { extensionOf } from '../../components/upload/uploadFile';
import { callUrl } from '../../../adapters/dataProvider';
import { useApi } from '../../components/calls';
import type { ResourceConfig } from '../../resources/types';
import { AreaField } from './AreaField';

/** The package's address (upload.appPackageFile), opened by the browser. */
export const appDownloadPath = (id: unknown) => callUrl('upload.appPackageFile', { id: String(id) });
/** Spec 001 §5, §9: apk, ipa, png up to 200 MB (204800 KB). */
const EXTENSIONS = ['apk', 'ipa', 'png'];
const LIMIT_BYTES = 200 * 1024 * 1024;

/** The package: chosen, checked, streamed up with a progress bar; the row keeps the stored name. */
function AppFileField({ field, value, onChange, disabled, error }: FieldInputProps) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [picked, setPicked] = useState<string | null>(null);

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!EXTENSIONS.includes(extensionOf(file.name))) return notify(translate('appVersion.badFormat'), { type: 'warning' });
    if (file.size > LIMIT_BYTES) return notify(translate('appVersion.tooLarge'), { type: 'warning' });
    setProgress(0);
    try {
      const envelope = await api.upload('upload.appPackage', file, { onProgress: (sent, total) => setProgress(Math.min(100, Math.round((sent / total) * 100))) });
      onChange(envelope.data.fAppFile);
      setPicked(file.name);
      notify(translate('appVersion.uploaded'), { type: 'success' });
    } catch (e) {
      if (e instanceof ApiError && e.status !== 200 && e.status !== 0) return;
      notify(translate('upload.failed', { message: e instanceof Error ? e.message : String(e) }), { type: 'error' });
    } finally {
      setProgress(null);
    }
  };

  const stored = typeof value === 'string' && value ? value : null;
  return (
    <Box data-testid={'form-field-' + field.source}>
      <FormLabel sx={{ fontSize: 12 }}>{translate(field.label)}</FormLabel>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5, minHeight: 32 }}>
        <Button size="small" variant="outlined" startIcon={<UploadIcon />} disabled={disabled || progress !== null} onClick={() => input.current?.click()} data-testid="app-file-choose">
          {translate(stored ? 'appVersion.replaceFile' : 'appVersion.chooseFile')}
        </Button>
        <Typography variant="body2" color="text.secondary" noWrap sx={{ minWidth: 0 }} data-testid="app-file-name">
          {picked ?? stored ?? translate('appVersion.noFile')}
        </Typography>
      </Box>
      {progress !== null && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }} data-testid="app-file-progress">
          <LinearProgress variant="determinate" value={progress} sx={{ flex: 1, height: 8, borderRadius: 1 }} />
          <Typography variant="caption">{progress}%</Typography>
        </Box>
      )}
      <FormHelperText error={Boolean(error)}>{error || translate('appVersion.fileHint')}</FormHelperText>
      <input ref={input} type="file" hidden accept=".apk,.ipa,.png" onChange={(e) => void pick(e.target.files?.[0])} data-testid="app-file-input" />
    </Box>
  );
}

const INPUTS = { fAppFile: AppFileField, fAreaId: AreaField };

/** App versions (spec 001 §2.9): the generic list and form, with the package upload, the area and a download button. */
export function AppVersionList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  return (
    <SchemaList
      config={config}
      form={{ inputs: INPUTS }}
      rowActions={(row) => (
        // Always there, so the row buttons line up; disabled while the version has no package.
        <Button size="small" startIcon={<DownloadIcon />} disabled={!row.fAppFile} href={row.fAppFile ? appDownloadPath(row.fId) : undefined} data-testid="app-download">
          {translate('appVersion.download')}
        </Button>
      )}
    />
  );
}

export default AppVersionList;
