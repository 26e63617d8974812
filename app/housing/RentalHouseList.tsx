/**
 * 出租屋 (rental houses): the generic list of the house resource — jurisdiction and keyword filters,
 * add/edit with the building picked down the address path — with the landlord's phone masked 3+4 and a
 * rooms view per house: the generic list again, of the house's rooms (status from the leases, current
 * tenants), fixed to that house so a new room belongs to it.
 */
import { useMemo, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import MeetingRoomOutlined from '@mui/icons-material/MeetingRoomOutlined';
import { useTranslate } from 'react-admin';
import type { ResourceConfig } from '../resources/types';
import { resourceConfig } from '../resources/config';
import { SchemaList, type Row } from '../components';
import { maskPhone } from '../../contract/personal';

// Looked up on use: the generated table imports this module while it is being built.
const roomResource = () => resourceConfig('rentalRoom');

export function RentalHouseList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const [house, setHouse] = useState<Row | null>(null);
  const rooms = useMemo<ResourceConfig | null>(
    () =>
      house && {
        ...roomResource(),
        list: {
          ...roomResource().list,
          filters: [{ key: 'fHouseId', field: 'fHouseId', op: 'eq', value: Number(house.fHouseId) }, ...roomResource().list.filters.filter((f) => f.key !== 'fHouseId')],
        },
      },
    [house],
  );
  return (
    <>
      <SchemaList
        config={config}
        cells={{ fLandlordPhone: (row) => maskPhone(row.fLandlordPhone) || '-' }}
        rowActions={(row) => (
          <Button size="small" startIcon={<MeetingRoomOutlined />} onClick={() => setHouse(row)} data-testid="house-rooms">
            {translate('housing.rooms')}
          </Button>
        )}
      />
      <Dialog open={Boolean(house)} onClose={() => setHouse(null)} maxWidth="md" fullWidth data-testid="house-rooms-dialog">
        <DialogTitle>{translate('housing.roomsOf', { name: String(house?.fHouseName ?? '') })}</DialogTitle>
        <DialogContent sx={{ p: 0 }}>{rooms && <SchemaList key={String(house?.fHouseId)} config={rooms} />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setHouse(null)}>{translate('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

export default RentalHouseList;
