import { Box, ButtonBase, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { CallAnswer } from '../../adapters/dataProvider';

export type CounterKey = 'all' | 'online' | 'offline' | 'inactive';

/** The counters' figures, as the device total call answers them. */
export type DeviceTotals = CallAnswer<'device.total'>;

/** The list condition each counter stands for. */
export const COUNTER_CONDITIONS: Record<CounterKey, Record<string, number>> = {
  all: {},
  online: { online: 1 },
  offline: { online: 0 },
  inactive: { status: 0 },
};

const TILES: { key: CounterKey; field: keyof DeviceTotals; color: string }[] = [
  { key: 'all', field: 'allCount', color: 'primary.main' },
  { key: 'online', field: 'onlineCount', color: 'success.main' },
  { key: 'offline', field: 'onlineNotCount', color: 'text.secondary' },
  { key: 'inactive', field: 'noCount', color: 'warning.main' },
];

/** Four counters that double as quick filters. */
export function DeviceCounters({ totals, active, onSelect }: { totals?: DeviceTotals; active: CounterKey; onSelect: (key: CounterKey) => void }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' }, gap: 2, mb: 2 }}>
      {TILES.map((tile) => {
        const selected = active === tile.key;
        return (
          <ButtonBase
            key={tile.key}
            onClick={() => onSelect(tile.key)}
            data-testid={'device-counter-' + tile.key}
            aria-pressed={selected}
            sx={{
              display: 'block',
              textAlign: 'left',
              p: 2,
              borderRadius: 1,
              border: 1,
              borderColor: selected ? tile.color : 'divider',
              bgcolor: 'background.paper',
              boxShadow: selected ? 2 : 0,
              transition: 'box-shadow .2s',
            }}
          >
            <Typography variant="body2" color="text.secondary">
              {translate('device.counters.' + tile.key)}
            </Typography>
            <Typography variant="h5" sx={{ color: tile.color, fontWeight: 600 }} data-testid={'device-counter-' + tile.key + '-value'}>
              {totals?.[tile.field] ?? 0}
            </Typography>
          </ButtonBase>
        );
      })}
    </Box>
  );
}
