import { useEffect, useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import LinkIcon from '@mui/icons-material/Link';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { useTranslate } from 'react-admin';
import { useCans } from '../../auth/useCan';
import { useConfirmedCall } from '../../components/useConfirmedCall';
import { usePagedCall } from '../../components/usePagedCall';
import { SearchButtons, SearchText } from '../../components/SearchBar';
import { useSearch } from '../../components/useSearch';
import { PAGE_SIZE, ROOM_CODES, ROOM_DEVICE_CALLS, ROOM_CALLS, failureText, type Place, type Room } from './api';
import { RoomDialog } from './RoomDialog';
import { DevicePickerDialog, type PickerRow } from '../../devices';
import { DataTable, actionsColumn } from '../../components/DataTable';
import { IconAction } from '../../components/IconAction';

/** A room's binding: the link, with its device under `device`. */
type Binding = PickerRow<typeof ROOM_DEVICE_CALLS.selected>;
/** A binding shows its device; the devices offered for binding are plain rows. */
const deviceOf = (row: Binding) => row.device ?? row;

export interface RoomsDialogProps {
  place: Place | null;
  onClose: () => void;
  /** Rooms or bindings changed: the place's counts are stale. */
  onChanged: () => void;
}

/** The rooms of one place: search by name, add, and per room bind/unbind devices, edit, delete. */
export function RoomsDialog({ place, onClose, onChanged }: RoomsDialogProps) {
  const translate = useTranslate();
  const { add: canAdd, edit: canEdit, del: canDelete, bind: canBind } = useCans(ROOM_CODES);
  const { confirmCall, call, dialog } = useConfirmedCall();
  const { draft, setDraft, applied: name, page, setPage, ...search } = useSearch('', { first: 0 });
  const [editing, setEditing] = useState<Partial<Room> | null>(null);
  /** The room whose devices are being bound or unbound; kept after closing, so the closing picker keeps its words. */
  const [linking, setLinking] = useState<{ room: Room; bind: boolean; open: boolean } | null>(null);

  const placeId = place?.fId;
  useEffect(() => search.reset(), [placeId]);

  const rooms = usePagedCall(ROOM_CALLS.list, placeId ? { current: page + 1, size: PAGE_SIZE, condition: { fHomeId: placeId, fName: name.trim() } } : null);

  const changed = () => {
    rooms.reload();
    onChanged();
  };

  const remove = (room: Room) =>
    confirmCall(translate('places.confirmDeleteRoom'), ROOM_CALLS.delete, { fId: room.fId }, {
      done: () => translate('places.roomDeleted'),
      failed: (res) => failureText(translate, 'places.roomDeleteFailed', res),
      after: changed,
    });

  // A refused binding says why in the server's words.
  const bind = (room: Room, picked: { fId: number }[]) =>
    call(ROOM_DEVICE_CALLS.bind, picked.map((d) => ({ fId: d.fId, fDeviceId: d.fId, fHomeId: room.fHomeId, fRoomId: room.fId })), { done: () => translate('places.bound'), failed: (res) => res.message, after: changed });
  const unbind = (picked: Binding[]) =>
    call(ROOM_DEVICE_CALLS.unbind, picked.map((l) => ({ fId: l.fId, fHomeId: l.fHomeId, fDeviceId: l.fDeviceId, fRoomId: null })), { done: () => translate('places.unbound'), failed: (res) => res.message, after: changed });

  return (
    <Dialog open={place !== null} onClose={onClose} maxWidth="md" fullWidth data-testid="rooms-dialog">
      <DialogTitle>{translate('places.roomsTitle', { name: place?.fName ?? '' })}</DialogTitle>
      <DialogContent dividers>
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            search.query();
          }}
          sx={{ display: 'flex', gap: 1, mb: 1, flexWrap: 'wrap', alignItems: 'center' }}
        >
          <SearchText label={translate('places.roomName')} placeholder={translate('places.roomNamePlaceholder')} value={draft} onChange={setDraft} testId="room-search-name" />
          <SearchButtons testIds={{ query: 'room-search' }} />
          <Box sx={{ flex: 1 }} />
          {canAdd && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ fHomeId: place!.fId })} data-testid="room-add">
              {translate('places.addRoom')}
            </Button>
          )}
        </Box>
        <DataTable
          {...rooms.table}
          empty={translate('places.noRooms')}
          tableProps={{ 'data-testid': 'room-table' }}
          rowProps={(r) => ({ 'data-testid': 'room-row', 'data-id': r.fId })}
          columns={[
            { key: 'name', header: translate('places.roomName'), cell: (r) => r.fName },
            { key: 'type', header: translate('places.roomType'), cell: (r: Room) => r.type?.fContent ?? '-' },
            { key: 'devices', header: translate('places.devices'), align: 'right', cell: (r) => r.deviceCount ?? 0 },
            actionsColumn(translate('common.actions'), (r: Room) => (
              <>
                {canBind && (
                  <>
                    <Tooltip title={translate('places.bind')}>
                      <IconButton size="small" color="primary" onClick={() => setLinking({ room: r, bind: true, open: true })} data-testid="room-bind">
                        <LinkIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={translate('places.unbind')}>
                      <IconButton size="small" onClick={() => setLinking({ room: r, bind: false, open: true })} data-testid="room-unbind">
                        <LinkOffIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </>
                )}
                {canEdit && <IconAction kind="edit" onClick={() => setEditing(r)} testId="room-edit" />}
                {canDelete && <IconAction kind="delete" onClick={() => remove(r)} testId="room-delete" />}
              </>
            )),
          ]}
          pager={{ count: rooms.data.total, page, rowsPerPage: PAGE_SIZE, onPage: setPage }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="rooms-close">{translate('places.close')}</Button>
      </DialogActions>
      <RoomDialog room={editing} onClose={() => setEditing(null)} onSaved={changed} />
      {linking &&
        // Binding offers the devices the room's place has not filed yet; unbinding, the room's bindings.
        (linking.bind ? (
          <DevicePickerDialog
            search="keyword"
            open={linking.open}
            title={translate('places.bindTitle', { name: linking.room.fName ?? '' })}
            call={ROOM_DEVICE_CALLS.unselected}
            condition={{ fHomeId: linking.room.fHomeId, fRoomId: linking.room.fId }}
            emptyMessage={translate('places.bindNone')}
            onClose={() => setLinking({ ...linking, open: false })}
            onConfirm={(picked) => bind(linking.room, picked)}
            testId="room-bind-picker"
          />
        ) : (
          <DevicePickerDialog
            search="keyword"
            deviceOf={deviceOf}
            open={linking.open}
            title={translate('places.unbindTitle', { name: linking.room.fName ?? '' })}
            call={ROOM_DEVICE_CALLS.selected}
            condition={{ fHomeId: linking.room.fHomeId, fRoomId: linking.room.fId }}
            emptyMessage={translate('places.unbindNone')}
            onClose={() => setLinking({ ...linking, open: false })}
            onConfirm={unbind}
            testId="room-unbind-picker"
          />
        ))}
      {dialog}
    </Dialog>
  );
}
