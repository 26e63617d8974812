/**
 * The location page's map: a pin per located device, the chosen one brought to zoom 15 with its popup
 * open. The spec's centre (Shanghai) is where the map opens; once devices are found, it moves to show
 * them all. Works without a tile server: a drawn grid stands in for the tiles and a note says why.
 */
import { useMemo } from 'react';
import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { CENTER, DEVICE_ZOOM, ZOOM, type LocatedDevice } from './constants';
import { MARKER_CAP, shortName, validPosition } from '../../components/map';
import { PinMap, type MapPin } from '../../components/PinMap';

export function LocationMap({ devices, chosen, onChoose }: { devices: LocatedDevice[]; chosen: LocatedDevice | null; onChoose: (d: LocatedDevice) => void }) {
  const translate = useTranslate();
  const shown = useMemo(() => devices.filter((d) => validPosition(d.fGpsLongitude, d.fGpsLatitude)).slice(0, MARKER_CAP), [devices]);
  const pins = useMemo(
    () =>
      shown.map((d): MapPin => {
        const online = Number(d.tOnline) === 1;
        return {
          id: d.fId,
          lat: d.fGpsLatitude,
          lng: d.fGpsLongitude,
          online,
          tooltip: shortName(d),
          popup: {
            title: shortName(d),
            lines: [
              [translate('location.popup.number'), d.fNumber],
              !!d.productName && [translate('location.popup.product'), d.productName],
              [translate('location.popup.status'), translate(`enums.online.${online ? 1 : 0}`)],
              [translate('location.popup.position'), `${d.fGpsLongitude.toFixed(6)}, ${d.fGpsLatitude.toFixed(6)}`],
            ],
          },
        };
      }),
    [shown, translate],
  );
  // A new object each time a device is chosen (the page copies it), so Locate again refocuses.
  const focus = useMemo(() => chosen && { id: chosen.fId, lat: chosen.fGpsLatitude, lng: chosen.fGpsLongitude }, [chosen]);

  return (
    <PinMap
      pins={pins}
      center={CENTER}
      zoom={ZOOM}
      follow="fit"
      chosen={focus}
      focusZoom={DEVICE_ZOOM}
      onChoose={(id) => {
        const d = shown.find((s) => s.fId === id);
        if (d) onChoose(d);
      }}
      testIds={{ map: 'location-map', pin: 'location-marker', popup: 'location-popup', tiles: 'location-tiles-unavailable' }}
      tilesUnavailable={translate('location.tilesUnavailable')}
      overlay={
        <Chip
          size="small"
          variant="outlined"
          label={shown.length ? translate('location.count', { count: shown.length }) : translate('location.none')}
          sx={{ position: 'absolute', right: 12, top: 12, zIndex: 500, bgcolor: 'background.paper' }}
          data-testid="location-count"
        />
      }
      sx={{ height: '100%', minHeight: 480, border: 1, borderColor: 'divider' }}
    />
  );
}

export default LocationMap;
