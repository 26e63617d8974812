/**
 * The console's device map (the dashboard's, the location page's): a drawn pin per device, online green
 * and offline grey, a popup of its details, and the tiles of app/components/map.ts. Without a tile server
 * (an intranet without internet) the pins stay usable on a drawn grid and a note says why the map is
 * blank. Not in the components' index: Leaflet loads with the pages that draw a map, not before.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { MapContainer, Marker, Popup, TileLayer, Tooltip, useMap } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { Box, Chip, Typography, type SxProps, type Theme } from '@mui/material';
import { useTileUrl } from './map';

export interface MapPin {
  id: number;
  lat: number;
  lng: number;
  online: boolean;
  /** Its name as the browser's hover title. */
  title?: string;
  /** Its name in a tooltip above it. */
  tooltip?: string;
  /** The popup: a bold title, then "label: value" lines (a falsy line is left out). */
  popup: { title: string; lines: ([string, ReactNode] | false | null | undefined)[] };
}

export interface PinMapProps {
  pins: MapPin[];
  center: [number, number];
  zoom: number;
  /**
   * How the map follows its pins: `first` centres on the first one at the zoom the user has, `fit` shows
   * them all (at most `focusZoom` close), so a query never leaves its results off-screen.
   */
  follow: 'first' | 'fit';
  /**
   * The chosen pin: drawn larger in blue, brought to `focusZoom` with its popup open. A new object each
   * time it is chosen, so choosing the same device again brings the map back to it.
   */
  chosen?: Pick<MapPin, 'id' | 'lat' | 'lng'> | null;
  focusZoom?: number;
  onChoose?: (id: number) => void;
  testIds: { map?: string; pin: string; popup: string; tiles: string };
  /** The note shown when no tiles can be drawn. */
  tilesUnavailable: string;
  /** Drawn over the map (a count). */
  overlay?: ReactNode;
  /** The frame's size and border. */
  sx?: SxProps<Theme>;
}

const icons = new Map<string, L.DivIcon>();
/** A drawn pin rather than Leaflet's image marker, whose picture would need its own asset path. */
function pin(testId: string, online: boolean, chosen: boolean): L.DivIcon {
  const key = `${testId}${online ? 1 : 0}${chosen ? 1 : 0}`;
  let icon = icons.get(key);
  if (!icon) {
    const color = chosen ? '#1677ff' : online ? '#52c41a' : '#8c8c8c';
    const size = chosen ? 24 : 18;
    icon = L.divIcon({
      className: 'map-pin',
      html: `<div data-testid="${testId}" data-online="${online ? 1 : 0}" style="width:${size}px;height:${size}px;border-radius:50% 50% 50% 0;background:${color};transform:rotate(-45deg);border:2px solid #fff;box-shadow:0 1px 4px rgba(0,0,0,.45)"></div>`,
      iconSize: [size, size],
      iconAnchor: [size / 2, size],
      popupAnchor: [0, -size],
      tooltipAnchor: [size / 2, -size / 2],
    });
    icons.set(key, icon);
  }
  return icon;
}

function Follow({ pins, how, maxZoom }: { pins: MapPin[]; how: PinMapProps['follow']; maxZoom: number }) {
  const map = useMap();
  const first = pins.length ? ([pins[0].lat, pins[0].lng] as [number, number]) : null;
  useEffect(() => {
    if (how === 'first' && first) map.setView(first, map.getZoom());
  });
  useEffect(() => {
    if (how === 'fit' && pins.length) map.fitBounds(L.latLngBounds(pins.map((p) => [p.lat, p.lng] as [number, number])), { padding: [40, 40], maxZoom });
  }, [how, pins, map, maxZoom]);
  return null;
}

function Focus({ chosen, zoom, markers }: { chosen: PinMapProps['chosen']; zoom: number; markers: React.RefObject<Map<number, L.Marker>> }) {
  const map = useMap();
  useEffect(() => {
    if (!chosen) return;
    map.setView([chosen.lat, chosen.lng], zoom);
    // The marker re-renders with the chosen icon first; open its popup once it is there.
    const t = setTimeout(() => markers.current?.get(chosen.id)?.openPopup(), 50);
    return () => clearTimeout(t);
  }, [chosen, map, markers, zoom]);
  return null;
}

export function PinMap({ pins, center, zoom, follow, chosen = null, focusZoom = 15, onChoose, testIds, tilesUnavailable, overlay, sx }: PinMapProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  // undefined while the server's tile address is not known yet: no tiles, and no warning about them.
  const url = useTileUrl();
  const markers = useRef(new Map<number, L.Marker>());
  return (
    <Box
      data-testid={testIds.map}
      sx={[
        {
          position: 'relative',
          borderRadius: 1,
          overflow: 'hidden',
          // Without tiles the map is this plain grid rather than an empty grey.
          '& .leaflet-container': {
            height: '100%',
            backgroundColor: '#eef3f8',
            backgroundImage: 'linear-gradient(#dde6ef 1px, transparent 1px), linear-gradient(90deg, #dde6ef 1px, transparent 1px)',
            backgroundSize: '40px 40px',
          },
          '& .map-pin': { background: 'transparent', border: 0 },
        },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      <MapContainer center={center} zoom={zoom} scrollWheelZoom style={{ height: '100%', width: '100%' }}>
        {url && <TileLayer url={url} attribution="&copy; OpenStreetMap" eventHandlers={{ tileerror: () => setTilesFailed(true) }} />}
        <Follow pins={pins} how={follow} maxZoom={focusZoom} />
        <Focus chosen={chosen} zoom={focusZoom} markers={markers} />
        {pins.map((p) => (
          <Marker
            key={p.id}
            position={[p.lat, p.lng]}
            icon={pin(testIds.pin, p.online, p.id === chosen?.id)}
            title={p.title}
            eventHandlers={onChoose ? { click: () => onChoose(p.id) } : undefined}
            ref={(m) => {
              if (m) markers.current.set(p.id, m);
              else markers.current.delete(p.id);
            }}
          >
            {p.tooltip && <Tooltip direction="top">{p.tooltip}</Tooltip>}
            <Popup>
              <Box sx={{ fontSize: 13, minWidth: 200 }} data-testid={testIds.popup}>
                <Typography sx={{ fontWeight: 600, fontSize: 14, mb: 0.5 }}>{p.popup.title}</Typography>
                {p.popup.lines.map(
                  (line) =>
                    line && (
                      <div key={line[0]}>
                        {line[0]}: {line[1]}
                      </div>
                    ),
                )}
              </Box>
            </Popup>
          </Marker>
        ))}
      </MapContainer>
      {overlay}
      {(tilesFailed || url === '') && <Chip size="small" color="warning" label={tilesUnavailable} sx={{ position: 'absolute', left: 12, bottom: 12, zIndex: 500 }} data-testid={testIds.tiles} />}
    </Box>
  );
}

export default PinMap;
