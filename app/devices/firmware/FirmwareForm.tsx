import { useEffect, useRef, useState } from 'react';
import { Box, Button, CircularProgress, Dialog, DialogContent, DialogTitle, FormHelperText, FormLabel, Typography } from '@mui/material';
import UploadIcon from '@mui/icons-material/UploadFile';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { FieldInput } from '../../components/FieldInput';
import { DialogFooter } from '../../components/DialogFooter';
import { FormGrid } from '../../components/FormGrid';
import { toBody, validateForm, type FieldError, type FormValues } from '../../components/validate';
import { UPLOAD_LIMIT_KB } from '../../components/upload/uploadFile';
import { useFilePicker } from '../../components/upload/useFilePicker';
import type { FieldConfig, ResourceConfig } from '../../resources/types';
import type { FirmwareRow } from './endpoints';

const VALIDATION_RESET_MS = 300;

function initial(fields: FieldConfig[], record: FirmwareRow | null): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = record?.[f.source];
    values[f.source] = v === undefined || v === null ? '' : f.type === 'integer' && !f.ref ? String(v) : v;
  }
  return values;
}

/**
 * Add/edit of a firmware version: the schema's fields, plus the firmware file, whose upload fills in the
 * stored file name and its MD5 signature. A failed validation keeps the dialog open.
 */
export function FirmwareForm({ config, open, record, onClose }: { config: ResourceConfig; open: boolean; record: FirmwareRow | null; onClose: () => void }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const refresh = useRefresh();
  const editing = Boolean(record?.fId);
  const fields = config.form.fields.map((s) => config.fields[s]).filter((f): f is FieldConfig => Boolean(f) && !f.readOnly && f.source !== 'fFileName');
  const [values, setValues] = useState<FormValues>({});
  const [errors, setErrors] = useState<Record<string, FieldError>>({});
  const [saving, setSaving] = useState(false);
  const [fileName, setFileName] = useState('');
  const [original, setOriginal] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!open) return;
    setValues(initial(fields, record));
    setFileName(String(record?.fFileName ?? ''));
    setOriginal('');
    setErrors({});
    setSaving(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, record]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const set = (source: string, value: unknown) => {
    setValues((v) => ({ ...v, [source]: value }));
    setErrors(({ [source]: _gone, ...rest }) => rest);
  };

  const upload = async (file: File) => {
    if (file.size > UPLOAD_LIMIT_KB * 1024) return notify(translate('upload.tooLarge'), { type: 'warning' });
    try {
      const { data } = await api.upload('upload.firmware', file);
      setFileName(data.fFileName);
      setOriginal(data.originalName);
      set('fMd5Sign', data.fMd5Sign);
      notify(translate('firmware.file.success'), { type: 'success' });
    } catch (e) {
      notify(translate('upload.failed', { message: e instanceof Error ? e.message : String(e) }), { type: 'error' });
    }
  };
  const picker = useFilePicker({ accept: '.bin,.hex,.img,.fw,.zip,.gz,.tar', testId: 'firmware-upload-input', onFile: upload });
  const uploading = picker.busy;

  const submit = async () => {
    if (saving) return;
    setSaving(true);
    const found = validateForm(fields, values);
    if (Object.keys(found).length) {
      setErrors(found);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setSaving(false), VALIDATION_RESET_MS);
      return;
    }
    const body = { ...toBody(fields, values, editing), fFileName: fileName, ...(editing ? { fId: record!.fId } : {}) };
    try {
      await api.call('firmware.save', body);
      notify(translate('firmware.saveSuccess'), { type: 'success' });
      setSaving(false);
      onClose();
      refresh();
    } catch (error) {
      setSaving(false);
      if (error instanceof ApiError && error.status !== 200) return;
      notify(translate('firmware.saveFailed', { message: error instanceof Error ? error.message : String(error) }), { type: 'error' });
    }
  };

  const message = (e?: FieldError) => (e ? translate(e.key, { ...e.args, label: e.args?.labelKey ? translate(String(e.args.labelKey)) : '' }) : undefined);
  const busy = saving || uploading;

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} fullWidth maxWidth="md" data-testid="firmware-form">
      <DialogTitle>{translate(editing ? 'common.editTitle' : 'common.addTitle', { name: translate(config.label) })}</DialogTitle>
      <DialogContent dividers>
        <FormGrid onSubmit={() => void submit()}>
          {fields.map((f) => (
            <Box key={f.source} sx={{ gridColumn: (f.maxLength ?? 0) >= 500 ? '1 / -1' : undefined }}>
              <FieldInput field={f} value={values[f.source]} onChange={(v) => set(f.source, v)} disabled={busy} error={message(errors[f.source])} />
            </Box>
          ))}
          <Box sx={{ gridColumn: '1 / -1' }} data-testid="firmware-file">
            <FormLabel sx={{ fontSize: 12, display: 'block', mb: 0.5 }}>{translate('firmware.file.label')}</FormLabel>
            <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
              <Button
                size="small"
                variant="outlined"
                startIcon={uploading ? <CircularProgress size={14} /> : <UploadIcon />}
                disabled={busy}
                onClick={picker.choose}
                data-testid="firmware-upload-button"
              >
                {translate(fileName ? 'firmware.file.replace' : 'firmware.file.choose')}
              </Button>
              <Typography variant="body2" color={fileName ? 'text.primary' : 'text.secondary'} data-testid="firmware-file-name" sx={{ wordBreak: 'break-all' }}>
                {fileName ? (original ? `${original} → ${fileName}` : fileName) : translate('firmware.file.none')}
              </Typography>
            </Box>
            <FormHelperText>{translate('firmware.file.hint')}</FormHelperText>
            {picker.input}
          </Box>
        </FormGrid>
      </DialogContent>
      <DialogFooter onCancel={onClose} cancelTestId="form-cancel" onSubmit={() => void submit()} submitLabel="common.save" submitTestId="form-save" busy={busy} spinner={saving} />
    </Dialog>
  );
}
