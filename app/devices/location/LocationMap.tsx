/**
 * The location page's map: a pin per located device, the chosen one brought to zoom 15 with its popup
 * open. Works without a tile server: a drawn grid stands in for the tiles and a note says why.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { MapContainer, Marker, Popup, TileLayer, Tooltip, useMap } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { Box, Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { CENTER, DEVICE_ZOOM, ZOOM, type LocatedDevice } from './constants';
import { MARKER_CAP, shortName, tileUrl, validPosition } from '../../components/map';

const icons = new Map<string, L.DivIcon>();
function pin(online: boolean, chosen: boolean): L.DivIcon {
  const key = `${online ? 1 : 0}${chosen ? 1 : 0}`;
  let icon = icons.get(key);
  if (!icon) {
    const color = chosen ? '#1677ff' : online ? '#52c41a' : '#8c8c8c';
    const size = chosen ? 24 : 18;
    icon = L.divIcon({
      className: 'location-pin',
      html: `<div data-testid="location-marker" data-online="${online ? 1 : 0}" style="width:${size}px;height:${size}px;border-radius:50% 50% 50% 0;background:${color};transform:rotate(-45deg);border:2px solid #fff;box-shadow:0 1px 4px rgba(0,0,0,.45)"></div>`,
      iconSize: [size, size],
      iconAnchor: [size / 2, size],
      popupAnchor: [0, -size],
      tooltipAnchor: [size / 2, -size / 2],
    });
    icons.set(key, icon);
  }
  return icon;
}

function Focus({ device, markers }: { device: LocatedDevice | null; markers: React.RefObject<Map<number, L.Marker>> }) {
  const map = useMap();
  useEffect(() => {
    if (!device) return;
    map.setView([device.fGpsLatitude, device.fGpsLongitude], DEVICE_ZOOM);
    // The marker re-renders with the chosen icon first; open its popup once it is there.
    const t = setTimeout(() => markers.current?.get(device.fId)?.openPopup(), 50);
    return () => clearTimeout(t);
  }, [device, map, markers]);
  return null;
}

/**
 * The spec's centre (Shanghai) is where the map opens; once devices are found, it moves to show them
 * all, so a query never leaves its results off-screen.
 */
function FitToDevices({ devices }: { devices: LocatedDevice[] }) {
  const map = useMap();
  useEffect(() => {
    if (!devices.length) return;
    map.fitBounds(L.latLngBounds(devices.map((d) => [d.fGpsLatitude, d.fGpsLongitude] as [number, number])), { padding: [40, 40], maxZoom: DEVICE_ZOOM });
  }, [devices, map]);
  return null;
}

export function LocationMap({ devices, chosen, onChoose }: { devices: LocatedDevice[]; chosen: LocatedDevice | null; onChoose: (d: LocatedDevice) => void }) {
  const translate = useTranslate();
  const [tilesFailed, setTilesFailed] = useState(false);
  const url = useMemo(tileUrl, []);
  const markers = useRef(new Map<number, L.Marker>());
  const shown = useMemo(() => devices.filter((d) => validPosition(d.fGpsLongitude, d.fGpsLatitude)).slice(0, MARKER_CAP), [devices]);

  return (
    <Box
      data-testid="location-map"
      sx={{
        position: 'relative',
        height: '100%',
        minHeight: 480,
        borderRadius: 1,
        overflow: 'hidden',
        border: 1,
        borderColor: 'divider',
        '& .leaflet-container': {
          height: '100%',
          backgroundColor: '#eef3f8',
          backgroundImage: 'linear-gradient(#dde6ef 1px, transparent 1px), linear-gradient(90deg, #dde6ef 1px, transparent 1px)',
          backgroundSize: '40px 40px',
        },
        '& .location-pin': { background: 'transparent', border: 0 },
      }}
    >
      <MapContainer center={CENTER} zoom={ZOOM} scrollWheelZoom style={{ height: '100%', width: '100%' }}>
        {url && <TileLayer url={url} attribution="&copy; OpenStreetMap" eventHandlers={{ tileerror: () => setTilesFailed(true) }} />}
        <FitToDevices devices={shown} />
        <Focus device={chosen} markers={markers} />
        {shown.map((d) => (
          <Marker
            key={d.fId}
            position={[d.fGpsLatitude, d.fGpsLongitude]}
            icon={pin(Number(d.tOnline) === 1, chosen?.fId === d.fId)}
            eventHandlers={{ click: () => onChoose(d) }}
            ref={(m) => {
              if (m) markers.current.set(d.fId, m);
              else markers.current.delete(d.fId);
            }}
          >
            <Tooltip direction="top">{shortName(d)}</Tooltip>
            <Popup>
              <Box sx={{ fontSize: 13, minWidth: 200 }} data-testid="location-popup">
                <Box sx={{ fontWeight: 600, fontSize: 14, mb: 0.5 }}>{shortName(d)}</Box>
                <div>
                  {translate('location.popup.number')}: {d.fNumber}
                </div>
                {d.productName && (
                  <div>
                    {translate('location.popup.product')}: {d.productName}
                  </div>
                )}
                <div>
                  {translate('location.popup.status')}: {translate(`enums.online.${Number(d.tOnline) === 1 ? 1 : 0}`)}
                </div>
                <div>
                  {translate('location.popup.position')}: {d.fGpsLongitude.toFixed(6)}, {d.fGpsLatitude.toFixed(6)}
                </div>
              </Box>
            </Popup>
          </Marker>
        ))}
      </MapContainer>
      <Chip
        size="small"
        variant="outlined"
        label={shown.length ? translate('location.count', { count: shown.length }) : translate('location.none')}
        sx={{ position: 'absolute', right: 12, top: 12, zIndex: 500, bgcolor: 'background.paper' }}
        data-testid="location-count"
      />
      {(tilesFailed || !url) && (
        <Chip
          size="small"
          color="warning"
          label={translate('location.tilesUnavailable')}
          sx={{ position: 'absolute', left: 12, bottom: 12, zIndex: 500 }}
          data-testid="location-tiles-unavailable"
        />
      )}
    </Box>
  );
}

export default LocationMap;
