import { useState } from 'react';
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, TextField, Typography } from '@mui/material';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import type { CallName } from '../../../adapters/dataProvider';
import { entityCall, useApi } from '../../components/calls';
import { imageUrl } from '../../components/api';
import { SchemaList } from '../../components/SchemaList';
import type { Row } from '../../components/FormDialog';
import { useSignOff } from '../../components/SignOffDialog';
import type { ResourceConfig } from '../../resources/types';

/** The spec's modal image height (spec 001 §9). */
const IMAGE_HEIGHT = 400;

const photosOf = (row: Row) =>
  String(row.fPhotos ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);

/** The comma-separated photos as a carousel. */
function PhotoCarousel({ photos, onClose }: { photos: string[]; onClose: () => void }) {
  const translate = useTranslate();
  const [index, setIndex] = useState(0);
  const step = (d: number) => setIndex((i) => (i + d + photos.length) % photos.length);
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="feedback-photos">
      <DialogTitle>
        {translate('feedback.photos')} ({index + 1}/{photos.length})
      </DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <IconButton onClick={() => step(-1)} disabled={photos.length < 2} aria-label={translate('feedback.previous')}>
          <ChevronLeft />
        </IconButton>
        <Box sx={{ flex: 1, height: IMAGE_HEIGHT, display: 'flex', justifyContent: 'center', bgcolor: 'action.hover' }}>
          <Box component="img" src={imageUrl(photos[index]) ?? undefined} alt="" sx={{ height: IMAGE_HEIGHT, maxWidth: '100%', objectFit: 'contain' }} data-testid="feedback-photo" />
        </Box>
        <IconButton onClick={() => step(1)} disabled={photos.length < 2} aria-label={translate('feedback.next')}>
          <ChevronRight />
        </IconButton>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** Reply (spec 002 §5): required content; the server's message on success, 反馈答复失败 otherwise. */
function ReplyDialog({ row, call, onClose }: { row: Row; call: CallName; onClose: () => void }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const refresh = useRefresh();
  const [text, setText] = useState(String(row.fAnswer ?? ''));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!text.trim()) return setError(translate('feedback.answerRequired'));
    setBusy(true);
    try {
      const envelope = await api.call(call, { fId: row.fId, fAnswerContent: text.trim() });
      notify(translate('feedback.answered', { _: envelope.message }), { type: 'success' });
      onClose();
      refresh();
    } catch (e) {
      if (!(e instanceof ApiError) || e.status === 200) notify(translate('feedback.answerFailed'), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={() => !busy && onClose()} maxWidth="sm" fullWidth data-testid="feedback-reply">
      <DialogTitle>{translate('feedback.reply')}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2, whiteSpace: 'pre-wrap' }}>
          {String(row.fFeedbackContent ?? '')}
        </Typography>
        <TextField
          label={translate('feedback.answerContent')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setError('');
          }}
          required
          multiline
          minRows={4}
          fullWidth
          error={Boolean(error)}
          helperText={error || ' '}
          slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'feedback-answer-input' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined} data-testid="feedback-answer-save">
          {translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Feedback: the tenant list's photos and sign-off (spec 001 §2.8) and, as the list variant 反馈答复, the
 * administration list's filters, photos and reply (spec 002 §2 item 10); the resource's `actions` say which
 * buttons a list offers. Neither spec gates these buttons by a code; the server requires each list's code.
 */
export function FeedbackList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const [photos, setPhotos] = useState<string[] | null>(null);
  const [replying, setReplying] = useState<Row | null>(null);
  const signOff = useSignOff({ call: entityCall(config, 'sign'), title: 'feedback.signTitle', onSigned: refresh });
  const actions = config.list.actions ?? ['photo', 'sign'];

  return (
    <>
      <SchemaList
        config={config}
        readOnly
        cells={{
          userName: (row) => (
            <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
              {String(row.userName ?? '-')}
            </Box>
          ),
          ...Object.fromEntries(
            (['fFeedbackContent', 'fAnswer', 'fHandleContent'] as const).map((source) => [
              source,
              (row: Row) => (
                <Typography variant="body2" sx={{ maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={String(row[source] ?? '')}>
                  {String(row[source] ?? '-')}
                </Typography>
              ),
            ]),
          ),
        }}
        rowActions={(row) => {
          const list = photosOf(row);
          return (
            <>
              {actions.includes('photo') && (
                <Button size="small" disabled={!list.length} onClick={() => setPhotos(list)} data-testid="feedback-photos-open">
                  {translate(list.length ? 'feedback.photos' : 'feedback.noPhotos')}
                </Button>
              )}
              {actions.includes('sign') && (
                <Button size="small" disabled={Number(row.fStatus) !== 0} onClick={() => signOff.open(row)} data-testid="feedback-sign">
                  {translate(Number(row.fStatus) === 0 ? 'feedback.sign' : 'feedback.signedLabel')}
                </Button>
              )}
              {actions.includes('reply') && (
                <Button size="small" onClick={() => setReplying(row)} data-testid="feedback-reply-open">
                  {translate('feedback.reply')}
                </Button>
              )}
            </>
          );
        }}
      />
      {photos && <PhotoCarousel photos={photos} onClose={() => setPhotos(null)} />}
      {signOff.dialog}
      {replying && <ReplyDialog row={replying} call={entityCall(config, 'answer')} onClose={() => setReplying(null)} />}
    </>
  );
}

export default FeedbackList;
