/**
 * Every alarm list (one per variant of resources/alarm.resource.json): the generic list with the
 * jurisdiction picker, sign-off one at a time and of several chosen rows, the alarm
 * photo and, on the device alarm list, the device view. A new alarm of the list's types reloads it.
 */
import { useCallback, useMemo, useState } from 'react';
import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { SchemaList } from '../../components/SchemaList';
import { useCan } from '../../auth/useCan';
import type { ResourceConfig } from '../../resources/types';
import { useAlarmEvents, type AlarmEvent } from '../../platform';
import { BatchSignDialog, PhotoDialog, useAlarmSignOff } from './SignDialogs';

type Row = Record<string, unknown>;

const SIGN_CODE = 'alarm:sign';
/** The spec's device alarm list shows its view button to holders of device:edit. */
const DEVICE_VIEW_CODE = 'device:edit';

export function AlarmList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const canSign = useCan(SIGN_CODE);
  const canViewDevice = useCan(DEVICE_VIEW_CODE);
  const actions = config.list.actions ?? ['sign', 'photo'];
  const [batch, setBatch] = useState<Row[] | null>(null);
  const [photo, setPhoto] = useState<string | null>(null);
  const [reloadKey, setReloadKey] = useState(0);
  const [clearSelection, setClearSelection] = useState<() => void>(() => () => undefined);
  const reload = () => setReloadKey((k) => k + 1);
  const signOff = useAlarmSignOff(reload);

  const types = useMemo(() => {
    const t = config.list.condition?.alarm_type;
    return Array.isArray(t) ? new Set(t.map(Number)) : null;
  }, [config]);
  useAlarmEvents(
    useCallback(
      (e: AlarmEvent) => {
        if (!types || types.has(Number(e.fAlarmType))) setReloadKey((k) => k + 1);
      },
      [types],
    ),
  );

  const signable = (row: Row) => canSign && actions.includes('sign') && Number(row.fStatus) === 0;
  return (
    <>
      <SchemaList
        config={config}
        reloadKey={reloadKey}
        cells={{
          fPhotoUrl: (row) =>
            row.fPhotoUrl ? (
              <Button size="small" onClick={() => setPhoto(String(row.fPhotoUrl))} data-testid="alarm-photo-cell">
                {translate('alarms.photo.view')}
              </Button>
            ) : (
              '-'
            ),
        }}
        rowActions={(row) => (
          <>
            {signable(row) && (
              <Button size="small" onClick={() => signOff.open(row)} data-testid="alarm-sign">
                {translate('alarms.sign.action')}
              </Button>
            )}
            {actions.includes('photo') && !!row.fPhotoUrl && (
              <Button size="small" onClick={() => setPhoto(String(row.fPhotoUrl))} data-testid="alarm-photo">
                {translate('alarms.photo.action')}
              </Button>
            )}
            {actions.includes('device') && canViewDevice && !!(row.tDevice as Row | null)?.fNumber && (
              <Button size="small" onClick={() => navigate(`/device/${encodeURIComponent(String((row.tDevice as Row).fNumber))}`)} data-testid="alarm-device">
                {translate('common.view')}
              </Button>
            )}
          </>
        )}
        selection={
          canSign && actions.includes('sign')
            ? {
                selectable: signable,
                toolbar: (rows, clear) => (
                  <Button
                    variant="outlined"
                    disabled={!rows.length}
                    onClick={() => {
                      setClearSelection(() => clear);
                      setBatch(rows);
                    }}
                    data-testid="alarm-batch-sign"
                  >
                    {translate('alarms.sign.batchAction', { count: rows.length })}
                  </Button>
                ),
              }
            : undefined
        }
      />
      {signOff.dialog}
      <BatchSignDialog
        rows={batch}
        onClose={() => setBatch(null)}
        onDone={() => {
          clearSelection();
          reload();
        }}
      />
      <PhotoDialog url={photo} onClose={() => setPhoto(null)} />
    </>
  );
}

export default AlarmList;
