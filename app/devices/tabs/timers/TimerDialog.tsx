import { useEffect, useRef, useState } from 'react';
import { DateTimeInput } from '../../../components/DateTimeInput';
import {
  Box, Dialog, DialogContent, DialogTitle, IconButton, MenuItem, Switch, TextField, Tooltip, Typography,
} from '@mui/material';
import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutlineOutlined';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import { useNotify, useTranslate } from 'react-admin';
import { NEW_TIMER, VALID_TYPES, type Timer } from './api';
import { useRequest } from '../../../components/calls';
import { DialogFooter } from '../../../components/DialogFooter';
import { validateField } from '../../../components/validate';
import { resourceConfig } from '../../../resources/config';

/** A failed validation keeps the spinner this long, like the other dialogs, so the click visibly registers. */
const VALIDATION_RESET_MS = 300;
/** The rows scroll past this height (spec 000 §9). */
const ROWS_MAX_HEIGHT = 400;

type FormRow = Timer & { key: number };

/** Looked up when first needed: the generated resources import the device page, which imports this dialog. */
const reverseSecondField = () => resourceConfig('deviceTiming').fields.fReverseSecond;

/**
 * The catalogue key of what is wrong with a reverse delay, by the schema's rules (1 to 86400 whole
 * seconds), so a value the server would refuse in Chinese is refused here in the console's language.
 */
function reverseSecondError(value: unknown): string | null {
  if (value === undefined || value === null || String(value).trim() === '') return 'deviceTimers.reverseSecondMin';
  return validateField(reverseSecondField(), value)?.key ?? null;
}
type RowErrors = Partial<Record<'fTime' | 'fValidType' | 'fReverseSecond', string>>;

const COLUMNS = '150px 130px 90px 70px 120px 70px 76px';

/**
 * Add or edit timers of one device. The form may hold several rows, saved together; the first row
 * stays, and a new row copies its neighbour (without its id, so it becomes a new timer).
 */
export function TimerDialog({ open, deviceId, record, onClose, onSaved }: { open: boolean; deviceId: number; record: Timer | null; onClose: () => void; onSaved: () => void }) {
  const translate = useTranslate();
  const request = useRequest();
  const notify = useNotify();
  const nextKey = useRef(1);
  const [rows, setRows] = useState<FormRow[]>([]);
  const [errors, setErrors] = useState<Record<number, RowErrors>>({});
  const [saving, setSaving] = useState(false);
  const reset = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!open) return;
    const first = record ? { ...NEW_TIMER, ...record } : { ...NEW_TIMER };
    setRows([{ ...first, key: nextKey.current++ }]);
    setErrors({});
    setSaving(false);
  }, [open, record]);
  useEffect(() => () => clearTimeout(reset.current), []);

  const change = (key: number, patch: Partial<Timer>) => {
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setErrors((e) => (e[key] ? { ...e, [key]: Object.fromEntries(Object.entries(e[key]).filter(([f]) => !(f in patch))) } : e));
  };
  const addAfter = (index: number) =>
    setRows((rs) => {
      const { fId: _id, fRunTime: _r, fRunNextTime: _n, fReverseTime: _t, ...copy } = rs[index];
      return [...rs.slice(0, index + 1), { ...copy, key: nextKey.current++ }, ...rs.slice(index + 1)];
    });
  const remove = (key: number) => setRows((rs) => rs.filter((r) => r.key !== key));

  const validate = (): boolean => {
    const found: Record<number, RowErrors> = {};
    for (const r of rows) {
      const e: RowErrors = {};
      if (!r.fTime) e.fTime = translate('deviceTimers.timeRequired');
      if (!Number.isInteger(Number(r.fValidType)) || !r.fValidType) e.fValidType = translate('deviceTimers.validTypeRequired');
      if (Number(r.fReverse) === 1) {
        const error = reverseSecondError(r.fReverseSecond);
        if (error) e.fReverseSecond = translate(error);
      }
      if (Object.keys(e).length) found[r.key] = e;
    }
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  const submit = async () => {
    if (saving) return;
    setSaving(true);
    if (!validate()) {
      clearTimeout(reset.current);
      reset.current = setTimeout(() => setSaving(false), VALIDATION_RESET_MS);
      return;
    }
    const body = rows.map((r) => ({
      ...(r.fId ? { fId: r.fId } : {}),
      fDeviceId: deviceId,
      fTime: r.fTime,
      fValidType: Number(r.fValidType),
      fOpt: Number(r.fOpt),
      fState: Number(r.fState),
      fReverse: Number(r.fReverse),
      fReverseSecond: Number(r.fReverseSecond) >= 1 ? Number(r.fReverseSecond) : 60,
    }));
    const res = await request('deviceTiming.saves', body);
    setSaving(false);
    if (res.ok) {
      notify(translate('deviceTimers.saved'), { type: 'success' });
      onClose();
      onSaved();
    } else if (!res.announced) {
      notify(translate('deviceTimers.saveFailed', { message: res.message }), { type: 'error' });
    }
  };

  const header = (key: string) => (
    <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
      {translate(key)}
    </Typography>
  );

  /** An on/off column of a row (1 on, 0 off). */
  const flag = (r: FormRow, key: 'fReverse' | 'fState', label: string, testId: string) => (
    <Box sx={{ pt: 0.25 }}>
      <Switch
        checked={Number(r[key]) === 1}
        onChange={(_ev, on) => change(r.key, { [key]: on ? 1 : 0 })}
        disabled={saving}
        slotProps={{ input: { 'aria-label': translate(label), ...({ 'data-testid': testId } as object) } }}
      />
    </Box>
  );

  return (
    <Dialog open={open} onClose={() => !saving && onClose()} maxWidth="md" fullWidth data-testid="timer-dialog">
      <DialogTitle>{translate(record?.fId ? 'deviceTimers.editTitle' : 'deviceTimers.addTitle')}</DialogTitle>
      <DialogContent dividers sx={{ px: 2 }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: COLUMNS, columnGap: 1.5, alignItems: 'center', px: 1, pb: 1, minWidth: 780 }}>
          {header('deviceTimers.time')}
          {header('deviceTimers.validType')}
          {header('deviceTimers.opt')}
          {header('deviceTimers.reverse')}
          {header('deviceTimers.reverseSecond')}
          {header('deviceTimers.state')}
          <span />
        </Box>
        <Box sx={{ maxHeight: ROWS_MAX_HEIGHT, overflowY: 'auto', minWidth: 780 }} data-testid="timer-form-rows">
          {rows.map((r, index) => {
            const e = errors[r.key] ?? {};
            return (
              <Box
                key={r.key}
                data-testid="timer-form-row"
                sx={{ display: 'grid', gridTemplateColumns: COLUMNS, columnGap: 1.5, alignItems: 'start', px: 1, pt: 1, borderTop: index ? 1 : 0, borderColor: 'divider' }}
              >
                {/* Its own label, not the column's: the field says what its time is (and a screen reader reads it). */}
                <DateTimeInput
                  mode="time"
                  label={translate('deviceTimers.runAt')}
                  value={r.fTime ?? ''}
                  onChange={(fTime) => change(r.key, { fTime })}
                  error={e.fTime}
                  disabled={saving}
                  testId="timer-time"
                />
                <TextField
                  select
                  size="small"
                  value={r.fValidType ?? ''}
                  onChange={(ev) => change(r.key, { fValidType: Number(ev.target.value) })}
                  error={Boolean(e.fValidType)}
                  helperText={e.fValidType ?? ' '}
                  disabled={saving}
                  slotProps={{ htmlInput: { 'data-testid': 'timer-valid-type' }, select: { inputProps: { 'aria-label': translate('deviceTimers.validType') } } }}
                >
                  {VALID_TYPES.map((v) => (
                    <MenuItem key={v} value={v}>
                      {translate(`deviceTimers.validTypes.${v}`)}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  select
                  size="small"
                  value={r.fOpt}
                  onChange={(ev) => change(r.key, { fOpt: Number(ev.target.value) === 2 ? 2 : 1 })}
                  helperText=" "
                  disabled={saving}
                  slotProps={{ htmlInput: { 'data-testid': 'timer-opt' }, select: { inputProps: { 'aria-label': translate('deviceTimers.opt') } } }}
                >
                  <MenuItem value={1}>{translate('deviceTimers.opts.1')}</MenuItem>
                  <MenuItem value={2}>{translate('deviceTimers.opts.2')}</MenuItem>
                </TextField>
                {flag(r, 'fReverse', 'deviceTimers.reverse', 'timer-reverse')}
                <TextField
                  type="number"
                  size="small"
                  value={r.fReverseSecond}
                  onChange={(ev) => change(r.key, { fReverseSecond: ev.target.value === '' ? ('' as unknown as number) : Number(ev.target.value) })}
                  error={Boolean(e.fReverseSecond)}
                  helperText={e.fReverseSecond ?? ' '}
                  disabled={saving || Number(r.fReverse) !== 1}
                  slotProps={{
                    htmlInput: { min: 1, step: 1, 'data-testid': 'timer-reverse-second', 'aria-label': translate('deviceTimers.reverseSecond') },
                    input: { endAdornment: <Typography variant="caption" color="text.secondary">{translate('deviceTimers.seconds')}</Typography> },
                  }}
                />
                {flag(r, 'fState', 'deviceTimers.state', 'timer-state')}
                <Box sx={{ display: 'flex', pt: 0.25 }}>
                  <Tooltip title={translate('deviceTimers.addRow')}>
                    <IconButton size="small" color="primary" onClick={() => addAfter(index)} disabled={saving} data-testid="timer-row-add">
                      <AddCircleOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {index > 0 && (
                    <Tooltip title={translate('deviceTimers.removeRow')}>
                      <IconButton size="small" color="error" onClick={() => remove(r.key)} disabled={saving} data-testid="timer-row-remove">
                        <RemoveCircleOutlineIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </Box>
              </Box>
            );
          })}
        </Box>
      </DialogContent>
      <DialogFooter onCancel={onClose} cancelTestId="timer-cancel" onSubmit={() => void submit()} submitLabel="common.save" submitTestId="timer-save" busy={saving} />
    </Dialog>
  );
}

export default TimerDialog;
