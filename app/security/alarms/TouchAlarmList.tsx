/**
 * One-touch alerts: the generic list with a search by the person (name, ID card, phone), the point
 * opening its map, 'not verified' for people without a verified identity, and sign-off of unsigned
 * alerts with a handling note (the shared sign-off dialog, through the legacy updateStatus call).
 */
import { useState } from 'react';
import { Box, Button, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { SchemaList, type FilterWidget } from '../../components/SchemaList';
import { useSignOff } from '../../components/SignOffDialog';
import { entityCall } from '../../components/calls';
import type { ResourceConfig } from '../../resources/types';
import { PointMapDialog, type Point } from './PointMapDialog';

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
  const [point, setPoint] = useState<Point | null>(null);
  const [reloadKey, setReloadKey] = useState(0);
  const signOff = useSignOff({ call: entityCall(config, 'updateStatus'), title: 'alarms.touch.signTitle', onSigned: () => setReloadKey((k) => k + 1) });
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
            <Button size="small" onClick={() => signOff.open(row)} data-testid="touch-sign">
              {translate('alarms.sign.action')}
            </Button>
          ) : null
        }
      />
      <PointMapDialog point={point} onClose={() => setPoint(null)} />
      {signOff.dialog}
    </>
  );
}

export default TouchAlarmList;
