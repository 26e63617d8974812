import { Box, Button, CircularProgress, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { TitleRow } from '../../components/TitledSection';
import { ReadingsTable, callsFor, useReadings } from './shared';

/** Data display: the device's latest samples; refresh asks the device for fresh values first. */
function DataTab({ device }: DeviceTabProps) {
  const translate = useTranslate();
  const { data, loading, error, load } = useReadings(device.fId, callsFor(device).elec);
  return (
    <Box data-testid="device-data-tab" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <TitleRow title={translate('deviceTab.data.title')} sx={{ gap: 2 }}>
        <Typography variant="caption" color="text.secondary">{translate('deviceTab.data.refreshHint')}</Typography>
        <Button
          variant="outlined"
          size="small"
          startIcon={loading ? <CircularProgress size={16} /> : <RefreshIcon />}
          disabled={loading}
          onClick={() => void load(true)}
          data-testid="device-data-refresh"
        >
          {translate('deviceTab.refresh')}
        </Button>
      </TitleRow>
      {error && (
        <Typography color="error" variant="body2">
          {error}
        </Typography>
      )}
      <ReadingsTable data={data} />
    </Box>
  );
}

const tab: DeviceTab = { key: 'data', order: 30, label: 'device.tabs.data', component: DataTab };
export default tab;
