/**
 * The dashboard's device map (spec 000 §2, §9): a marker for every device with a valid position, an info
 * popup, centred on Beijing at zoom 10 until the first device's position takes over. The tile address
 * is configurable; when no tile server answers (an intranet without internet) the markers stay usable
 * on a plain background and a note says why the map is blank.
 */
import { useEffect, useMemo, useState } from 'react';
import { Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useApi } from '../components/calls';
import { MARKER_CAP, shortName, validPosition } from '../components/map';
import { PinMap, type MapPin } from '../components/PinMap';
import type { CallRow } from '../../adapters/dataProvider';

const BEIJING: [number, number] = [39.9042, 116.4074];
const ZOOM = 10;

/** A device of the list, with its product. */
type DeviceRow = CallRow<'device.list'>;

export function DeviceMap() {
  const translate = useTranslate();
  const api = useApi();
  const [devices, setDevices] = useState<DeviceRow[]>([]);

  useEffect(() => {
    let alive = true;
    // Only positioned devices: the newest 9,999 of them, not the newest 9,999 devices of which some have a position.
    api.call('device.list', { current: 1, size: MARKER_CAP, condition: { is_gps: 1 } })
      .then((e) => {
        if (!alive) return;
        setDevices((e.data?.records ?? []).filter((d) => validPosition(d.fGpsLongitude, d.fGpsLatitude)).slice(0, MARKER_CAP));
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, []);

  const pins = useMemo(
    () =>
      devices.map((d): MapPin => {
        const [lat, lng] = [Number(d.fGpsLatitude), Number(d.fGpsLongitude)];
        const online = Number(d.tOnline) === 1;
        return {
          id: d.fId,
          lat,
          lng,
          online,
          title: d.fName || d.fNumber,
          popup: {
            title: shortName(d),
            lines: [
              [translate('dashboard.map.number'), d.fNumber],
              !!d.tProduct?.fName && [translate('dashboard.map.product'), d.tProduct.fName],
              [translate('dashboard.map.status'), translate(`enums.online.${online ? 1 : 0}`)],
              !!d.fLastOnlineTime && [translate('dashboard.map.lastOnline'), d.fLastOnlineTime],
              [translate('dashboard.map.location'), `${lng.toFixed(6)}, ${lat.toFixed(6)}`],
            ],
          },
        };
      }),
    [devices, translate],
  );

  return (
    <Card data-testid="dashboard-map">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
            {translate('dashboard.map.title')}
          </Typography>
          <Chip size="small" variant="outlined" label={devices.length ? translate('dashboard.map.count', { count: devices.length }) : translate('dashboard.map.none')} data-testid="dashboard-map-count" />
        </Stack>
        <PinMap
          pins={pins}
          center={BEIJING}
          zoom={ZOOM}
          follow="first"
          testIds={{ pin: 'map-marker', popup: 'map-popup', tiles: 'dashboard-map-tiles-unavailable' }}
          tilesUnavailable={translate('dashboard.map.tilesUnavailable')}
          sx={{ height: 420 }}
        />
      </CardContent>
    </Card>
  );
}

export default DeviceMap;
