/**
 * One-touch alerts: the generic list with a search by the person (name, ID card, phone), the point
 * opening its map, 'not verified' for people without a verified identity, and sign-off of unsigned
 * alerts after a confirmation.
 */
import { useState } from 'react';
import { Box, Button, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { call } from '../../adapters/http';
import { SchemaList, type FilterWidget } from '../components/SchemaList';
import { useConfirm } from '../components/ConfirmDialog';
import type { ResourceConfig } from '../resources/types';
import { PointMapDialog, type Point } from './PointMapDialog';

type Row = Record<string, unknown>;

const USER_KEYS = ['userName', 'idcard', 'phone'] as const;

const userWidget: FilterWidget = ({ values, onChange }) => <UserSearch values={values} onChange={onChange} />;

function UserSearch({ values, onChange }: Parameters<FilterWidget>[0]) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
      {USER_KEYS.map((k) => (
        <TextField
          key={k}
          size="small"
          label={translate(`alarms.touch.${k}`)}
          value={String(values[k] ?? '')}
          onChange={(e) => onChange({ [k]: e.target.value })}
          slotProps={{ htmlInput: { 'data-testid': `filter-${k}` } }}
        />
      ))}
    </Box>
  );
}

export function TouchAlarmList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const notify = useNotify();
  const confirm = useConfirm();
  const [point, setPoint] = useState<Point | null>(null);
  const [reloadKey, setReloadKey] = useState(0);
  const sign = (row: Row) =>
    confirm.ask(translate('alarms.touch.confirmSign'), async () => {
      try {
        const answer = await call(config.endpoints.updateStatus, { fId: row.fId }, { quiet: true });
        if (answer.code === 200 && answer.success) {
          notify('alarms.sign.done', { type: 'success' });
          setReloadKey((k) => k + 1);
        }
      } catch (e) {
        notify(e instanceof Error ? e.message : String(e), { type: 'error' });
      }
    });
  return (
    <>
      <SchemaList
        config={config}
        reloadKey={reloadKey}
        filterWidgets={{ user: userWidget }}
        cells={{
          fUserName: (row) => (row.fUserName ? String(row.fUserName) : translate('alarms.touch.notVerified')),
          fPoint: (row) =>
            row.fPoint ? (
              <Button size="small" sx={{ p: 0, minWidth: 0, textTransform: 'none' }} onClick={() => setPoint({ longitude: Number(row.fLongitude), latitude: Number(row.fLatitude), address: row.fAddress as string })} data-testid="touch-point">
                {String(row.fPoint)}
              </Button>
            ) : (
              '-'
            ),
        }}
        rowActions={(row) =>
          Number(row.fStatus) === 0 ? (
            <Button size="small" onClick={() => sign(row)} data-testid="touch-sign">
              {translate('alarms.sign.action')}
            </Button>
          ) : null
        }
      />
      <PointMapDialog point={point} onClose={() => setPoint(null)} />
      {confirm.dialog}
    </>
  );
}

export default TouchAlarmList;
