/**
 * The dashboard's device map (spec §2, §9): a marker for every device with a valid position, an info
 * popup, centred on Beijing at zoom 10 until the first device's position takes over. The tile address
 * is configurable; when no tile server answers (an intranet without internet) the markers stay usable
 * on a plain background and a note says why the map is blank.
 */
import { useEffect, useMemo, useState } from 'react';
import { MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useApi } from '../components/calls';
import { MARKER_CAP, shortName, tileUrl, validPosition } from '../components/map';

const BEIJING: [number, number] = [39.9042, 116.4074];
const ZOOM = 10;

interface DeviceRow {
  fId: number;
  fNumber: string;
  fName?: string | null;
  fGpsLongitude?: number | string | null;
  fGpsLatitude?: number | string | null;
  tOnline?: number | null;
  fLastOnlineTime?: string | null;
  tProduct?: { fName?: string } | null;
}

interface Located extends DeviceRow {
  lat: number;
  lng: number;
}

function position(d: DeviceRow): [number, number] | null {
  return validPosition(d.fGpsLongitude, d.fGpsLatitude) ? [Number(d.fGpsLatitude), Number(d.fGpsLongitude)] : null;
}

const icons = new Map<string, L.DivIcon>();
/** A drawn pin rather than Leaflet's image marker, whose picture would need its own asset path. */
function pin(online: boolean): L.DivIcon {
  const key = online ? 'on' : 'off';
  let icon = icons.get(key);
  if (!icon) {
    const color = online ? '#52c41a' : '#8c8c8c';
    icon = L.divIcon({
      className: 'device-pin',
      html: `<div data-testid="map-marker" data-online="${online ? 1 : 0}" style="width:18px;height:18px;border-radius:50% 50% 50% 0;background:${color};transform:rotate(-45deg);border:2px solid #fff;box-shadow:0 1px 4px rgba(0,0,0,.45)"></div>`,
      iconSize: [18, 18],
      iconAnchor: [9, 18],
      popupAnchor: [0, -18],
    });
    icons.set(key, icon);
  }
  return icon;
}

function Recenter({ center }: { center: [number, number] | null }) {
  const map = useMap();
  useEffect(() => {
    if (center) map.setView(center, map.getZoom());
  }, [center, map]);
  return null;
}

function Tiles({ url, onError }: { url: string; onError: () => void }) {
  return <TileLayer url={url} attribution="&copy; OpenStreetMap" eventHandlers={{ tileerror: onError }} />;
}

export function DeviceMap() {
  const translate = useTranslate();
  const api = useApi();
  const [devices, setDevices] = useState<Located[]>([]);
  const [tilesFailed, setTilesFailed] = useState(false);
  const url = useMemo(tileUrl, []);

  useEffect(() => {
    let alive = true;
    // Only positioned devices: the newest 9,999 of them, not the newest 9,999 devices of which some have a position.
    api.call<{ records: DeviceRow[] }>('device.list', { current: 1, size: MARKER_CAP, condition: { is_gps: 1 } })
      .then((e) => {
        if (!alive) return;
        const rows = (e.data?.records ?? []).flatMap((d) => {
          const p = position(d);
          return p ? [{ ...d, lat: p[0], lng: p[1] }] : [];
        });
        setDevices(rows.slice(0, MARKER_CAP));
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
  }, []);

  const center = devices.length ? ([devices[0].lat, devices[0].lng] as [number, number]) : null;
  const name = shortName;

  return (
    <Card data-testid="dashboard-map">
      <CardContent>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
            {translate('dashboard.map.title')}
          </Typography>
          <Chip size="small" variant="outlined" label={devices.length ? translate('dashboard.map.count', { count: devices.length }) : translate('dashboard.map.none')} data-testid="dashboard-map-count" />
        </Stack>
        <Box
          sx={{
            position: 'relative',
            height: 420,
            borderRadius: 1,
            overflow: 'hidden',
            // Without tiles the map is this plain grid rather than an empty grey.
            '& .leaflet-container': {
              height: '100%',
              backgroundColor: '#eef3f8',
              backgroundImage: 'linear-gradient(#dde6ef 1px, transparent 1px), linear-gradient(90deg, #dde6ef 1px, transparent 1px)',
              backgroundSize: '40px 40px',
            },
            '& .device-pin': { background: 'transparent', border: 0 },
          }}
        >
          <MapContainer center={BEIJING} zoom={ZOOM} scrollWheelZoom style={{ height: '100%', width: '100%' }}>
            {url && <Tiles url={url} onError={() => setTilesFailed(true)} />}
            <Recenter center={center} />
            {devices.map((d) => (
              <Marker key={d.fId} position={[d.lat, d.lng]} icon={pin(Number(d.tOnline) === 1)} title={d.fName || d.fNumber}>
                <Popup>
                  <Box sx={{ fontSize: 13, minWidth: 200 }} data-testid="map-popup">
                    <Typography sx={{ fontWeight: 600, fontSize: 14, mb: 0.5 }}>{name(d)}</Typography>
                    <div>
                      {translate('dashboard.map.number')}: {d.fNumber}
                    </div>
                    {d.tProduct?.fName && (
                      <div>
                        {translate('dashboard.map.product')}: {d.tProduct.fName}
                      </div>
                    )}
                    <div>
                      {translate('dashboard.map.status')}: {translate(`enums.online.${Number(d.tOnline) === 1 ? 1 : 0}`)}
                    </div>
                    {d.fLastOnlineTime && (
                      <div>
                        {translate('dashboard.map.lastOnline')}: {d.fLastOnlineTime}
                      </div>
                    )}
                    <div>
                      {translate('dashboard.map.location')}: {d.lng.toFixed(6)}, {d.lat.toFixed(6)}
                    </div>
                  </Box>
                </Popup>
              </Marker>
            ))}
          </MapContainer>
          {(tilesFailed || !url) && (
            <Chip
              size="small"
              color="warning"
              label={translate('dashboard.map.tilesUnavailable')}
              sx={{ position: 'absolute', left: 12, bottom: 12, zIndex: 500 }}
              data-testid="dashboard-map-tiles-unavailable"
            />
          )}
        </Box>
      </CardContent>
    </Card>
  );
}

export default DeviceMap;
