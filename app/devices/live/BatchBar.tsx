import { useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { reasonText } from '../../../adapters/i18nProvider';
import type { CallAnswer } from '../../../adapters/dataProvider';
import { useCan } from '../../auth/useCan';
import { useOpenedOnce } from '../../components/useOpenedOnce';
import { useConfirm } from '../../components/ConfirmDialog';

/** Batch command types (spec 000 §4) with the permission code that offers each. */
export const BATCH_COMMANDS = [
  { type: 1, code: 'device:batch-reboot', label: 'device.batch.reboot' },
  { type: 2, code: 'device:batch-time', label: 'device.batch.time' },
  { type: 3, code: 'device:batch-open', label: 'device.batch.open' },
  { type: 4, code: 'device:batch-close', label: 'device.batch.close' },
  { type: 5, code: 'device:batch-locked', label: 'device.batch.lock' },
  { type: 6, code: 'device:batch-unlock', label: 'device.batch.unlock' },
] as const;

/** How one device answered a batch command (asked by device): its number, and why by code. */
export type BatchOutcome = Exclude<CallAnswer<'command.batch'>, string>[number];

function BatchButton({ type, code, label, selected, onDone }: { type: number; code: string; label: string; selected: number[]; onDone: (outcomes: BatchOutcome[]) => void }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const allowed = useCan(code);
  const [busy, setBusy] = useState(false);
  const { ask, dialog } = useConfirm();
  if (!allowed) return null;
  const run = async () => {
    setBusy(true);
    try {
      const answer = await api.call('command.batch', { fIds: selected, fCmdType: type, byDevice: true });
      onDone(Array.isArray(answer.data) ? answer.data : []);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 200) notify(error instanceof Error ? error.message : String(error), { type: 'warning' });
    } finally {
      setBusy(false);
    }
  };
  // One click reaches every selected device (cutting their power, rebooting them), so it is asked first.
  const confirmRun = () => {
    if (!selected.length) {
      notify(translate('device.batch.noneSelected'), { type: 'warning' });
      return;
    }
    ask(translate('device.batch.confirm', { count: selected.length, command: translate(label) }), run);
  };
  return (
    <>
      <Button size="small" variant="outlined" disabled={busy} onClick={confirmRun} data-testid={`device-batch-${type}`}>
        {translate(label)}
      </Button>
      {dialog}
    </>
  );
}

/** The batch buttons over the selected devices, and the devices' answers line by line. */
export function BatchBar({ selected, onDone }: { selected: number[]; onDone: () => void }) {
  const translate = useTranslate();
  const [lines, setLines] = useState<BatchOutcome[] | null>(null);
  const opened = useOpenedOnce(lines !== null);
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }} data-testid="device-batch">
        {BATCH_COMMANDS.map((b) => (
          <BatchButton
            key={b.type}
            {...b}
            selected={selected}
            onDone={(l) => {
              setLines(l);
              onDone();
            }}
          />
        ))}
      </Stack>
      {opened && (
        <Dialog open={lines !== null} onClose={() => setLines(null)} maxWidth="sm" fullWidth>
          <DialogTitle>{translate('device.batch.result')}</DialogTitle>
          <DialogContent>
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="device-batch-result">
              {(lines ?? []).map((line) => (
                <Alert key={line.fNumber} severity={line.ok ? 'success' : 'error'} sx={{ py: 0 }}>
                  {`${line.fNumber}: ${reasonText(line.reason)}`}
                </Alert>
              ))}
            </Box>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setLines(null)}>{translate('common.close')}</Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
