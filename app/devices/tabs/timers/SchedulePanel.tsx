import { DateTimeInput } from '../../../components/DateTimeInput';
import { Chip, MenuItem, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useCan } from '../../../auth/useCan';
import { EmptyState } from '../../../components/EmptyState';
import { actionsColumn } from '../../../components/DataTable';
import { DraftActions, DraftSelect, DraftsTable, useRowDrafts, type Draft } from '../shared';
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
  const drafts = useRowDrafts({ canList, deviceId, entity: 'deviceSwitch', fresh: NEW_SCHEDULE, texts: 'deviceSchedules' });
  const { change, save, remove } = drafts;

  /** The body of a row's save, or what is missing from it. */
  const bodyOf = (row: Draft<Schedule>) =>
    row.fBeginTime ? { fBeginTime: row.fBeginTime, fSwitch: Number(row.fSwitch), fWhich: Number(row.fWhich) } : { error: 'deviceSchedules.timeRequired' };

  if (!canList) return <EmptyState />;
  // A row is read-only to a user who may not edit it, and while it saves.
  const locked = (r: Draft<Schedule>) => !canEdit || Boolean(r.saving);

  return (
    <DraftsTable
      drafts={drafts}
      title={translate('device.tabs.schedules')}
      texts="deviceSchedules" prefix="schedule" testId="device-schedules-panel" canAdd={canEdit}
      columns={[
        {
          key: 'beginTime',
          header: translate('deviceSchedules.beginTime'),
          cellSx: { width: 170 },
          cell: (r) => <DateTimeInput mode="time" label={translate('deviceSchedules.beginTime')} value={r.fBeginTime ?? ''} disabled={locked(r)} onChange={(fBeginTime) => change(r.key, { fBeginTime })} error={r.error} testId="schedule-time" />,
        },
        {
          key: 'switch',
          header: translate('deviceSchedules.switch'),
          cellSx: { width: 120 },
          cell: (r) => (
            <DraftSelect value={Number(r.fSwitch)} disabled={locked(r)} onChange={(v) => change(r.key, { fSwitch: Number(v) === 1 ? 1 : 0 })} label={translate('deviceSchedules.switch')} testId="schedule-switch">
              <MenuItem value={1}>{translate('deviceSchedules.switches.1')}</MenuItem>
              <MenuItem value={0}>{translate('deviceSchedules.switches.0')}</MenuItem>
            </DraftSelect>
          ),
        },
        {
          key: 'which',
          header: translate('deviceSchedules.which'),
          cellSx: { width: 140 },
          cell: (r) => (
            <DraftSelect value={Number(r.fWhich)} disabled={locked(r)} onChange={(v) => change(r.key, { fWhich: Number(v) })} label={translate('deviceSchedules.which')} testId="schedule-which">
              {CHANNELS.map((c) => (
                <MenuItem key={c} value={c}>
                  {translate('deviceSchedules.channel', { n: c })}
                </MenuItem>
              ))}
            </DraftSelect>
          ),
        },
        {
          key: 'executed',
          header: translate('deviceSchedules.executed'),
          cell: (r) =>
            !r.fId ? (
              <Chip size="small" color="warning" variant="outlined" label={translate('deviceSchedules.unsaved')} />
            ) : Number(r.fIsExecute) === 1 && r.fExecuteTime ? (
              <Typography variant="body2">{translate('deviceSchedules.executedAt', { time: r.fExecuteTime })}</Typography>
            ) : (
              <Typography variant="body2" color="text.disabled">
                {translate('deviceSchedules.notExecuted')}
              </Typography>
            ),
        },
        ...(canEdit || canDelete
          ? [
              actionsColumn(translate('common.actions'), (r: Draft<Schedule>) => (
                <DraftActions
                  row={r}
                  texts="deviceSchedules"
                  prefix="schedule"
                  onSave={canEdit ? () => void save(r, bodyOf(r)) : undefined}
                  onDelete={canDelete || (canEdit && !r.fId) ? () => remove(r) : undefined}
                />
              )),
            ]
          : []),
      ]}
    />
  );
}

export default SchedulePanel;
