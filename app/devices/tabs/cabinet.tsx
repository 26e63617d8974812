import type { ReactNode } from 'react';
import { Box, Chip, MenuItem, Switch, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { useCan } from '../../auth/useCan';
import { EmptyState } from '../../components/EmptyState';
import { validateField } from '../../components/validate';
import { resourceConfig } from '../../resources/config';
import { actionsColumn } from '../../components/DataTable';
import { DraftActions, DraftSelect, DraftsTable, useRowDrafts, type Draft, type EditedRow } from './shared';

const CODES = { list: 'deviceAlarmCabinet:list', edit: 'deviceAlarmCabinet:edit' };
const UNITS = ['ppm', '%vol', '%LEL'];
const CHANNELS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** A threshold row of the alarm cabinet while it is edited (its numbers as typed until saved). */
type Cabinet = EditedRow<'deviceAlarmCabinet'>;

/** Spec 000 §9: switch 1, min 0, max 100, levels 100 and 100, not enabled. */
const NEW_ROW: Cabinet = { fSwitch: 1, fMin: 0, fMax: 100, fAlarmOne: 100, fAlarmTwo: 100, fUnit: '', fGasEn: '', fGasCh: '', fState: 0 };

type Row = Draft<Cabinet>;

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

const NUMBERS = ['fMin', 'fMax', 'fAlarmOne', 'fAlarmTwo'] as const;
/** The columns' names in the tab's texts (deviceCabinet.*). */
const LABELS = { fSwitch: 'channel', fMin: 'min', fMax: 'max', fAlarmOne: 'alarmOne', fAlarmTwo: 'alarmTwo', fUnit: 'unit', fGasEn: 'gasEn', fGasCh: 'gasCh', fState: 'state' } as const;
/** Looked up when first needed: the generated resources import the device page, which imports this tab. */
const cabinetFields = () => resourceConfig('deviceAlarmCabinet').fields;

/**
 * The schema's message for a threshold that is not a whole number in its range (a blank one included,
 * as the row has no empty threshold): checked here, since a value that is no number would otherwise
 * reach the server as null, and the server's refusal is in Chinese whatever the console's language.
 */
function numberError(row: Cabinet): string | null {
  for (const source of NUMBERS) {
    const field = cabinetFields()[source];
    const error = blank(row[source]) ? { key: field.messages.type } : validateField(field, row[source]);
    if (error) return error.key;
  }
  return null;
}

/** Alarm-cabinet thresholds of one device: each row saved or deleted on its own; new rows live here until saved. */
function CabinetTab({ device }: DeviceTabProps) {
  const translate = useTranslate();
  const canList = useCan(CODES.list);
  const canEdit = useCan(CODES.edit);
  const drafts = useRowDrafts({ canList, deviceId: device.fId, entity: 'deviceAlarmCabinet', fresh: NEW_ROW, texts: 'deviceCabinet' });
  const { change, save, remove } = drafts;

  /** The body of a row's save, or the first thing wrong with it. */
  const bodyOf = (row: Row) => {
    const error = blank(row.fUnit)
      ? 'deviceCabinet.unitRequired'
      : (numberError(row) ??
        (Number(row.fMin) > Number(row.fMax)
          ? 'deviceCabinet.minAboveMax'
          : blank(row.fGasEn) && blank(row.fGasCh)
            ? 'deviceCabinet.gasRequired'
            : null));
    if (error) return { error };
    const { key: _k, dirty: _d, saving: _s, error: _e, fBeginTime: _t, ...values } = row;
    return { ...values, fSwitch: Number(row.fSwitch), fMin: Number(row.fMin), fMax: Number(row.fMax), fAlarmOne: Number(row.fAlarmOne), fAlarmTwo: Number(row.fAlarmTwo) };
  };

  if (!canList) return <EmptyState />;

  // A row is read-only to a user who may not edit it, and while it saves.
  const locked = (r: Row) => !canEdit || Boolean(r.saving);
  const numberField = (r: Row, field: (typeof NUMBERS)[number]) => (
    <TextField
      size="small"
      fullWidth
      value={r[field]}
      disabled={locked(r)}
      onChange={(e) => change(r.key, { [field]: e.target.value })}
      slotProps={{ htmlInput: { inputMode: 'numeric', min: field === 'fMin' ? 0 : 1, max: 1000, 'data-testid': 'cabinet-' + field, 'aria-label': translate('deviceCabinet.' + LABELS[field]) } }}
    />
  );
  const textField = (r: Row, field: 'fGasEn' | 'fGasCh') => (
    <TextField
      size="small"
      fullWidth
      value={r[field] ?? ''}
      disabled={locked(r)}
      onChange={(e) => change(r.key, { [field]: e.target.value })}
      slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'cabinet-' + field, 'aria-label': translate('deviceCabinet.' + LABELS[field]) } }}
    />
  );
  const column = (field: keyof typeof LABELS, cellSx: object, cell: (r: Row) => ReactNode) => ({ key: field, header: translate('deviceCabinet.' + LABELS[field]), headerSx: { whiteSpace: 'nowrap' }, cellSx, cell });

  return (
    <DraftsTable
      drafts={drafts}
      title={translate('device.tabs.cabinet')}
      texts="deviceCabinet" prefix="cabinet" testId="device-cabinet-tab" canAdd={canEdit}
      tableSx={{ '& td, & th': { px: 0.75 } }}
      // A refused row says why under it.
      detail={(r) => (r.error ? { open: true, content: <Box sx={{ color: 'error.main', typography: 'caption', pb: 0.75 }} data-testid="cabinet-error">{r.error}</Box> } : null)}
      columns={[
        column('fSwitch', { minWidth: 64 }, (r) => (
          <DraftSelect value={Number(r.fSwitch)} disabled={locked(r)} onChange={(v) => change(r.key, { fSwitch: Number(v) })} label={translate('deviceCabinet.channel')} testId="cabinet-fSwitch">
            {CHANNELS.map((c) => (
              <MenuItem key={c} value={c}>{c}</MenuItem>
            ))}
          </DraftSelect>
        )),
        ...NUMBERS.map((field) => column(field, { minWidth: 72 }, (r) => numberField(r, field))),
        column('fUnit', { minWidth: 104 }, (r) => (
          <DraftSelect value={r.fUnit ?? ''} disabled={locked(r)} onChange={(fUnit) => change(r.key, { fUnit })} label={translate('deviceCabinet.unit')} testId="cabinet-fUnit" displayEmpty>
            <MenuItem value="" disabled>{translate('common.pleaseSelect')}</MenuItem>
            {UNITS.map((u) => (
              <MenuItem key={u} value={u}>{u}</MenuItem>
            ))}
          </DraftSelect>
        )),
        column('fGasEn', { minWidth: 96 }, (r) => textField(r, 'fGasEn')),
        column('fGasCh', { minWidth: 96 }, (r) => textField(r, 'fGasCh')),
        column('fState', { width: 70 }, (r) => (
          <Switch
            size="small"
            checked={Number(r.fState) === 1}
            disabled={locked(r)}
            onChange={(e) => change(r.key, { fState: e.target.checked ? 1 : 0 })}
            slotProps={{ input: { 'aria-label': translate('deviceCabinet.state') } }}
            data-testid="cabinet-fState"
          />
        )),
        actionsColumn(translate('common.actions'), (r: Row) => (
          <>
            {!r.fId && <Chip size="small" color="warning" variant="outlined" label={translate('deviceCabinet.unsaved')} sx={{ mr: 0.5 }} data-testid="cabinet-unsaved" />}
            {canEdit && <DraftActions row={r} texts="deviceCabinet" prefix="cabinet" onSave={() => void save(r, bodyOf(r))} onDelete={() => remove(r)} />}
          </>
        )),
      ]}
    />
  );
}

const tab: DeviceTab = { key: 'cabinet', order: 75, label: 'device.tabs.cabinet', component: CabinetTab };
export default tab;
