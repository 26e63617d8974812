import { useState } from 'react';
import { Box, Button, CircularProgress, FormHelperText, FormLabel, Typography } from '@mui/material';
import ImageNotSupportedOutlined from '@mui/icons-material/ImageNotSupportedOutlined';
import UploadIcon from '@mui/icons-material/UploadFile';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../adapters/http';
import { imageUrl } from './api';
import type { FieldInputProps } from './fieldInputProps';
import { imageProblem } from './upload/uploadFile';
import { useFilePicker } from './upload/useFilePicker';
import { useApi } from './calls';

/**
 * A picture field (a product's fImageName): the current picture, and an upload that stores the file on
 * the server and keeps the name it answers. The server checks type and size again by the file's bytes.
 */
export function ImageUpload({ field, value, onChange, disabled, error }: FieldInputProps) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const [broken, setBroken] = useState<string | null>(null);
  const name = typeof value === 'string' && value ? value : null;
  const src = imageUrl(name);

  const pick = async (file: File) => {
    const problem = imageProblem(file);
    if (problem) return notify(translate(problem), { type: 'warning' });
    try {
      const envelope = await api.upload('upload.picture', file);
      onChange(envelope.data);
      setBroken(null);
      notify(translate('upload.imageSuccess'), { type: 'success' });
    } catch (e) {
      const message = e instanceof ApiError || e instanceof Error ? e.message : String(e);
      notify(translate('upload.failed', { message }), { type: 'error' });
    }
  };
  const picker = useFilePicker({ accept: '.jpg,.jpeg,.png,image/jpeg,image/png', testId: 'image-upload-input', onFile: pick });
  const busy = picker.busy;

  return (
    <Box data-testid={'form-field-' + field.source} sx={{ mb: 1 }}>
      <FormLabel sx={{ fontSize: 12, display: 'block', mb: 0.5 }} required={field.required}>
        {translate(field.label)}
      </FormLabel>
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
        <Box
          sx={{ width: 72, height: 72, borderRadius: 1, border: 1, borderColor: 'divider', bgcolor: 'action.hover', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden', flexShrink: 0 }}
          data-testid="image-upload-preview"
        >
          {src && broken !== src ? (
            <Box component="img" src={src} alt="" onError={() => setBroken(src)} sx={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
          ) : (
            <ImageNotSupportedOutlined sx={{ color: 'text.disabled' }} />
          )}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button
              size="small"
              variant="outlined"
              startIcon={busy ? <CircularProgress size={14} /> : <UploadIcon />}
              disabled={disabled || busy}
              onClick={picker.choose}
              data-testid="image-upload-button"
            >
              {translate(busy ? 'upload.uploading' : name ? 'upload.replace' : 'upload.choose')}
            </Button>
            {name && (
              <Button size="small" color="inherit" disabled={disabled || busy} onClick={() => onChange('')} data-testid="image-upload-remove">
                {translate('upload.remove')}
              </Button>
            )}
          </Box>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
            {translate('upload.hint')}
          </Typography>
        </Box>
      </Box>
      {picker.input}
      <FormHelperText error={Boolean(error)}>{error ?? ' '}</FormHelperText>
    </Box>
  );
}

export default ImageUpload;
