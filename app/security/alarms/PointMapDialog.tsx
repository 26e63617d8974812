/**
 * 'Point details' of a one-touch alert: a full-screen map at zoom 14 with a marker and the address as
 * its label. Like the location page's map it works without a tile server (a drawn grid stands in).
 */
import { useMemo, useState } from 'react';
import { AppBar, Box, Chip, Dialog, IconButton, Toolbar, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { MapContainer, Marker, TileLayer, Tooltip } from 'react-leaflet';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useTranslate } from 'react-admin';
import { tileUrl } from '../../components/map';

export const POINT_ZOOM = 14;

export interface Point {
  longitude: number;
  latitude: number;
  address?: string | null;
}

const marker = L.divIcon({
  className: 'point-pin',
  html: '<div data-testid="point-marker" style="width:26px;height:26px;border-radius:50% 50% 50% 0;background:#e53935;transform:rotate(-45deg);border:2px solid #fff;box-shadow:0 1px 4px rgba(0,0,0,.45)"></div>',
  iconSize: [26, 26],
  iconAnchor: [13, 26],
  tooltipAnchor: [0, -26],
});

export function PointMapDialog({ point, onClose }: { point: Point | null; onClose: () => void }) {
  const translate = useTranslate();
  const [tilesFailed, setTilesFailed] = useState(false);
  const url = useMemo(tileUrl, []);
  return (
    <Dialog fullScreen open={!!point} onClose={onClose} data-testid="point-dialog">
      <AppBar position="relative" color="default" elevation={1}>
        <Toolbar variant="dense">
          <Typography sx={{ flex: 1 }} variant="h6">
            {translate('alarms.touch.pointTitle')}
          </Typography>
          <IconButton edge="end" onClick={onClose} aria-label={translate('common.close')} data-testid="point-close">
            <CloseIcon />
          </IconButton>
        </Toolbar>
      </AppBar>
      {point && (
        <Box
          sx={{
            position: 'relative',
            flex: 1,
            '& .leaflet-container': {
              height: '100%',
              backgroundColor: '#eef3f8',
              backgroundImage: 'linear-gradient(#dde6ef 1px, transparent 1px), linear-gradient(90deg, #dde6ef 1px, transparent 1px)',
              backgroundSize: '40px 40px',
            },
            '& .point-pin': { background: 'transparent', border: 0 },
          }}
          data-testid="point-map"
        >
          <MapContainer center={[point.latitude, point.longitude]} zoom={POINT_ZOOM} style={{ height: '100%', width: '100%' }}>
            {url && <TileLayer url={url} attribution="&copy; OpenStreetMap" eventHandlers={{ tileerror: () => setTilesFailed(true) }} />}
            <Marker position={[point.latitude, point.longitude]} icon={marker}>
              <Tooltip permanent direction="top">
                <span data-testid="point-label">{point.address || `${point.longitude},${point.latitude}`}</span>
              </Tooltip>
            </Marker>
          </MapContainer>
          {(tilesFailed || !url) && <Chip size="small" color="warning" label={translate('location.tilesUnavailable')} sx={{ position: 'absolute', left: 12, bottom: 12, zIndex: 500 }} />}
        </Box>
      )}
    </Dialog>
  );
}
