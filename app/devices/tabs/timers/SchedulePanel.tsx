import { useCallback, useEffect, useRef, useState } from 'react';
import { DateTimeInput } from '../../../components/DateTimeInput';
import {
  Box, Button, Chip, CircularProgress, IconButton, MenuItem, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Tooltip, Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useNotify, useTranslate } from 'react-admin';
import { useCan } from '../../../auth/useCan';
import { EmptyState } from '../../../components/EmptyState';
import { useConfirm } from '../../../components/ConfirmDialog';
import { CHANNELS, CODES, NEW_SCHEDULE, SWITCH_PATHS, request, type Schedule } from './api';

type Row = Schedule & { key: number; dirty?: boolean; saving?: boolean; error?: string };

/**
 * The timed-switch panel: one row per daily schedule (time, on/off, channel). New rows start with
 * zeros and exist only here until saved; deleting an unsaved row just drops it.
 */
export function SchedulePanel({ deviceId }: { deviceId: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const canList = useCan(CODES.scheduleList);
  const canEdit = useCan(CODES.edit);
  const canDelete = useCan(CODES.del);
  const { ask, dialog } = useConfirm();
  const nextKey = useRef(1);
  const [rows, setRows] = useState<Row[]>([]);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const res = await request<Schedule[]>(SWITCH_PATHS.list, { fDeviceId: deviceId });
    setLoading(false);
    if (res.ok) setRows((res.data ?? []).map((s) => ({ ...s, key: nextKey.current++ })));
  }, [canList, deviceId]);
  useEffect(() => {
    void load();
  }, [load]);

  const patch = (key: number, p: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...p } : r)));
  const add = () => setRows((rs) => [...rs, { ...NEW_SCHEDULE, key: nextKey.current++, dirty: true }]);

  const save = async (row: Row) => {
    if (!row.fBeginTime) {
      patch(row.key, { error: translate('deviceSchedules.timeRequired') });
      return;
    }
    patch(row.key, { saving: true, error: undefined });
    const body = { ...(row.fId ? { fId: row.fId } : {}), fDeviceId: deviceId, fBeginTime: row.fBeginTime, fSwitch: Number(row.fSwitch), fWhich: Number(row.fWhich) };
    const res = await request<Schedule>(SWITCH_PATHS.save, body);
    if (res.ok && res.data) {
      notify(translate('deviceSchedules.saved'), { type: 'success' });
      // Only this row takes the server's copy; other unsaved rows stay as they are.
      patch(row.key, { ...res.data, dirty: false, saving: false });
    } else {
      patch(row.key, { saving: false });
      if (!res.announced) notify(translate('deviceSchedules.saveFailed', { message: res.message }), { type: 'error' });
    }
  };

  const remove = (row: Row) => {
    if (!row.fId) {
      setRows((rs) => rs.filter((r) => r.key !== row.key));
      return;
    }
    ask(translate('deviceSchedules.confirmDelete'), async () => {
      const res = await request(SWITCH_PATHS.delete, { fId: row.fId });
      if (res.ok) {
        notify(translate('deviceSchedules.deleted'), { type: 'success' });
        setRows((rs) => rs.filter((r) => r.key !== row.key));
      } else if (!res.announced) notify(translate('deviceSchedules.deleteFailed', { message: res.message }), { type: 'error' });
    });
  };

  if (!canList) return <EmptyState />;

  return (
    <Box data-testid="device-schedules-panel" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          {translate('device.tabs.schedules')}
        </Typography>
        {canEdit && (
          <Button variant="contained" size="small" startIcon={<AddIcon />} onClick={add} data-testid="schedule-add">
            {translate('deviceSchedules.add')}
          </Button>
        )}
      </Box>
      {rows.length === 0 ? (
        <EmptyState message={translate(loading ? 'common.loading' : 'deviceSchedules.empty')} />
      ) : (
        <TableContainer component={Paper} variant="outlined" data-testid="schedule-table">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('deviceSchedules.beginTime')}</TableCell>
                <TableCell>{translate('deviceSchedules.switch')}</TableCell>
                <TableCell>{translate('deviceSchedules.which')}</TableCell>
                <TableCell>{translate('deviceSchedules.executed')}</TableCell>
                {(canEdit || canDelete) && <TableCell align="right">{translate('common.actions')}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.key} data-testid="schedule-row" data-id={r.fId ?? ''} data-unsaved={r.fId ? undefined : 'true'}>
                  <TableCell sx={{ width: 170 }}>
                    <DateTimeInput
                      mode="time"
                      label={translate('deviceSchedules.beginTime')}
                      value={r.fBeginTime}
                      disabled={!canEdit || r.saving}
                      onChange={(fBeginTime) => patch(r.key, { fBeginTime, dirty: true, error: undefined })}
                      error={r.error}
                      testId="schedule-time"
                    />
                  </TableCell>
                  <TableCell sx={{ width: 120 }}>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      value={Number(r.fSwitch)}
                      disabled={!canEdit || r.saving}
                      onChange={(e) => patch(r.key, { fSwitch: Number(e.target.value), dirty: true })}
                      slotProps={{ htmlInput: { 'data-testid': 'schedule-switch' }, select: { inputProps: { 'aria-label': translate('deviceSchedules.switch') } } }}
                    >
                      <MenuItem value={1}>{translate('deviceSchedules.switches.1')}</MenuItem>
                      <MenuItem value={0}>{translate('deviceSchedules.switches.0')}</MenuItem>
                    </TextField>
                  </TableCell>
                  <TableCell sx={{ width: 140 }}>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      value={Number(r.fWhich)}
                      disabled={!canEdit || r.saving}
                      onChange={(e) => patch(r.key, { fWhich: Number(e.target.value), dirty: true })}
                      slotProps={{ htmlInput: { 'data-testid': 'schedule-which' }, select: { inputProps: { 'aria-label': translate('deviceSchedules.which') } } }}
                    >
                      {CHANNELS.map((c) => (
                        <MenuItem key={c} value={c}>
                          {translate('deviceSchedules.channel', { n: c })}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  <TableCell>
                    {!r.fId ? (
                      <Chip size="small" color="warning" variant="outlined" label={translate('deviceSchedules.unsaved')} />
                    ) : Number(r.fIsExecute) === 1 && r.fExecuteTime ? (
                      <Typography variant="body2">{translate('deviceSchedules.executedAt', { time: r.fExecuteTime })}</Typography>
                    ) : (
                      <Typography variant="body2" color="text.disabled">
                        {translate('deviceSchedules.notExecuted')}
                      </Typography>
                    )}
                  </TableCell>
                  {(canEdit || canDelete) && (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {canEdit && (
                        <Tooltip title={translate('deviceSchedules.save')}>
                          <span>
                            <IconButton size="small" color={r.dirty ? 'primary' : 'default'} onClick={() => void save(r)} disabled={r.saving} data-testid="schedule-save">
                              {r.saving ? <CircularProgress size={18} /> : <SaveIcon fontSize="small" />}
                            </IconButton>
                          </span>
                        </Tooltip>
                      )}
                      {(canDelete || (canEdit && !r.fId)) && (
                        <Tooltip title={translate('common.delete')}>
                          <span>
                            <IconButton size="small" color="error" onClick={() => remove(r)} disabled={r.saving} data-testid="schedule-delete">
                              <DeleteIcon fontSize="small" />
                            </IconButton>
                          </span>
                        </Tooltip>
                      )}
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {dialog}
    </Box>
  );
}

export default SchedulePanel;
