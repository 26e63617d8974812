import { DateTimeInput } from '../../../components/DateTimeInput';
import {
  Box, Button, Chip, MenuItem, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useTranslate } from 'react-admin';
import { useCan } from '../../../auth/useCan';
import { EmptyState } from '../../../components/EmptyState';
import { DraftActions, useRowDrafts, type Draft } from '../shared';
import { CHANNELS, CODES, NEW_SCHEDULE, type Schedule } from './api';

/**
 * The timed-switch panel: one row per daily schedule (time, on/off, channel). New rows start with
 * zeros and exist only here until saved; deleting an unsaved row just drops it.
 */
export function SchedulePanel({ deviceId }: { deviceId: number }) {
  const translate = useTranslate();
  const canList = useCan(CODES.scheduleList);
  const canEdit = useCan(CODES.edit);
  const canDelete = useCan(CODES.del);
  const { rows, loading, change, add, save, remove, dialog } = useRowDrafts<Schedule>({ canList, deviceId, entity: 'deviceSwitch', fresh: NEW_SCHEDULE, texts: 'deviceSchedules' });

  /** The body of a row's save, or what is missing from it. */
  const bodyOf = (row: Draft<Schedule>) =>
    row.fBeginTime ? { fBeginTime: row.fBeginTime, fSwitch: Number(row.fSwitch), fWhich: Number(row.fWhich) } : { error: 'deviceSchedules.timeRequired' };

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
                      onChange={(fBeginTime) => change(r.key, { fBeginTime })}
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
                      onChange={(e) => change(r.key, { fSwitch: Number(e.target.value) })}
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
                      onChange={(e) => change(r.key, { fWhich: Number(e.target.value) })}
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
                      <DraftActions
                        row={r}
                        texts="deviceSchedules"
                        prefix="schedule"
                        onSave={canEdit ? () => void save(r, bodyOf(r)) : undefined}
                        onDelete={canDelete || (canEdit && !r.fId) ? () => remove(r) : undefined}
                      />
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
