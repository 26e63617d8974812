import { Fragment } from 'react';
import {
  Box, Button, Chip, MenuItem, Paper, Switch, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { useCan } from '../../auth/useCan';
import { EmptyState } from '../../components/EmptyState';
import { validateField } from '../../components/validate';
import { resourceConfig } from '../../resources/config';
import { DraftActions, useRowDrafts, type Draft } from './shared';

const CODES = { list: 'deviceAlarmCabinet:list', edit: 'deviceAlarmCabinet:edit' };
const UNITS = ['ppm', '%vol', '%LEL'];
const CHANNELS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

interface Cabinet {
  fId?: number;
  fSwitch: number;
  fMin: number | string;
  fMax: number | string;
  fAlarmOne: number | string;
  fAlarmTwo: number | string;
  fUnit: string;
  fGasEn: string;
  fGasCh: string;
  fState: number;
  fBeginTime?: string | null;
}

/** Spec 000 §9: switch 1, min 0, max 100, levels 100 and 100, not enabled. */
const NEW_ROW: Cabinet = { fSwitch: 1, fMin: 0, fMax: 100, fAlarmOne: 100, fAlarmTwo: 100, fUnit: '', fGasEn: '', fGasCh: '', fState: 0 };

type Row = Draft<Cabinet>;

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

const NUMBERS = ['fMin', 'fMax', 'fAlarmOne', 'fAlarmTwo'] as const;
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
  const { rows, loading, change, add, save, remove, dialog } = useRowDrafts<Cabinet>({ canList, deviceId: device.fId, entity: 'deviceAlarmCabinet', fresh: NEW_ROW, texts: 'deviceCabinet' });

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

  const numberCell = (r: Row, field: 'fMin' | 'fMax' | 'fAlarmOne' | 'fAlarmTwo', min: number) => (
    <TableCell sx={{ minWidth: 72 }}>
      <TextField
        size="small"
        fullWidth
        value={r[field]}
        disabled={!canEdit || r.saving}
        onChange={(e) => change(r.key, { [field]: e.target.value })}
        slotProps={{ htmlInput: { inputMode: 'numeric', min, max: 1000, 'data-testid': 'cabinet-' + field, 'aria-label': translate('deviceCabinet.' + { fMin: 'min', fMax: 'max', fAlarmOne: 'alarmOne', fAlarmTwo: 'alarmTwo' }[field]) } }}
      />
    </TableCell>
  );
  const textCell = (r: Row, field: 'fGasEn' | 'fGasCh') => (
    <TableCell sx={{ minWidth: 96 }}>
      <TextField
        size="small"
        fullWidth
        value={r[field] ?? ''}
        disabled={!canEdit || r.saving}
        onChange={(e) => change(r.key, { [field]: e.target.value })}
        slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'cabinet-' + field, 'aria-label': translate(field === 'fGasEn' ? 'deviceCabinet.gasEn' : 'deviceCabinet.gasCh') } }}
      />
    </TableCell>
  );

  return (
    <Box data-testid="device-cabinet-tab" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          {translate('device.tabs.cabinet')}
        </Typography>
        {canEdit && (
          <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={add} data-testid="cabinet-add">
            {translate('deviceCabinet.add')}
          </Button>
        )}
      </Box>
      {rows.length === 0 ? (
        <EmptyState message={translate(loading ? 'common.loading' : 'deviceCabinet.empty')} />
      ) : (
        <TableContainer component={Paper} variant="outlined" data-testid="cabinet-table">
          <Table size="small" sx={{ '& td, & th': { px: 0.75 } }}>
            <TableHead>
              <TableRow>
                {['channel', 'min', 'max', 'alarmOne', 'alarmTwo', 'unit', 'gasEn', 'gasCh', 'state'].map((k) => (
                  <TableCell key={k} sx={{ whiteSpace: 'nowrap' }}>{translate('deviceCabinet.' + k)}</TableCell>
                ))}
                <TableCell align="right">{translate('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <Fragment key={r.key}>
                <TableRow data-testid="cabinet-row" data-id={r.fId ?? ''} data-unsaved={r.fId ? undefined : 'true'}>
                  <TableCell sx={{ minWidth: 64 }}>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      value={Number(r.fSwitch)}
                      disabled={!canEdit || r.saving}
                      onChange={(e) => change(r.key, { fSwitch: Number(e.target.value) })}
                      slotProps={{ htmlInput: { 'data-testid': 'cabinet-fSwitch' }, select: { inputProps: { 'aria-label': translate('deviceCabinet.channel') } } }}
                    >
                      {CHANNELS.map((c) => (
                        <MenuItem key={c} value={c}>{c}</MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  {numberCell(r, 'fMin', 0)}
                  {numberCell(r, 'fMax', 1)}
                  {numberCell(r, 'fAlarmOne', 1)}
                  {numberCell(r, 'fAlarmTwo', 1)}
                  <TableCell sx={{ minWidth: 104 }}>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      value={r.fUnit ?? ''}
                      disabled={!canEdit || r.saving}
                      onChange={(e) => change(r.key, { fUnit: e.target.value })}
                      slotProps={{ htmlInput: { 'data-testid': 'cabinet-fUnit' }, select: { displayEmpty: true, inputProps: { 'aria-label': translate('deviceCabinet.unit') } } }}
                    >
                      <MenuItem value="" disabled>{translate('common.pleaseSelect')}</MenuItem>
                      {UNITS.map((u) => (
                        <MenuItem key={u} value={u}>{u}</MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  {textCell(r, 'fGasEn')}
                  {textCell(r, 'fGasCh')}
                  <TableCell sx={{ width: 70 }}>
                    <Switch
                      size="small"
                      checked={Number(r.fState) === 1}
                      disabled={!canEdit || r.saving}
                      onChange={(e) => change(r.key, { fState: e.target.checked ? 1 : 0 })}
                      slotProps={{ input: { 'aria-label': translate('deviceCabinet.state') } }}
                      data-testid="cabinet-fState"
                    />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {!r.fId && <Chip size="small" color="warning" variant="outlined" label={translate('deviceCabinet.unsaved')} sx={{ mr: 0.5 }} data-testid="cabinet-unsaved" />}
                    {canEdit && <DraftActions row={r} texts="deviceCabinet" prefix="cabinet" onSave={() => void save(r, bodyOf(r))} onDelete={() => remove(r)} />}
                  </TableCell>
                </TableRow>
                {r.error && (
                  <TableRow>
                    <TableCell colSpan={10} sx={{ borderTop: 0, pt: 0, color: 'error.main', typography: 'caption' }} data-testid="cabinet-error">
                      {r.error}
                    </TableCell>
                  </TableRow>
                )}
                </Fragment>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {dialog}
    </Box>
  );
}

const tab: DeviceTab = { key: 'cabinet', order: 75, label: 'device.tabs.cabinet', component: CabinetTab };
export default tab;
