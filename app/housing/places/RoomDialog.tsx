import { useEffect, useState } from 'react';
import { Dialog, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { useDictionary } from '../../components/lookups';
import { optionItems } from '../../components/optionItems';
import { useRequest } from '../../components/calls';
import { DialogFooter } from '../../components/DialogFooter';
import { ROOM_CALLS, ROOM_TYPE_DICTIONARY, type Room } from './api';

export interface RoomDialogProps {
  /** The room to edit, or `{ fHomeId }` for a new one; null closes the dialog. */
  room: Partial<Room> | null;
  onClose: () => void;
  onSaved: () => void;
}

/** Add/edit a room of a place: name (required) and type (dictionary Room_Type). */
export function RoomDialog({ room, onClose, onSaved }: RoomDialogProps) {
  const translate = useTranslate();
  const request = useRequest();
  const notify = useNotify();
  const { options } = useDictionary(ROOM_TYPE_DICTIONARY);
  const [name, setName] = useState('');
  const [type, setType] = useState<string>('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const editing = Boolean(room?.fId);

  useEffect(() => {
    if (!room) return;
    setName(room.fName ?? '');
    setType(room.fType === null || room.fType === undefined ? '' : String(room.fType));
    setError('');
  }, [room]);

  const save = async () => {
    if (!name.trim()) {
      setError(translate('places.roomNameRequired'));
      return;
    }
    setBusy(true);
    const res = await request(ROOM_CALLS.save, {
      isAdd: !editing,
      ...(editing ? { fId: room!.fId } : {}),
      fHomeId: room!.fHomeId,
      fName: name.trim(),
      fType: type === '' ? null : Number(type),
    });
    setBusy(false);
    if (res.ok) {
      notify(translate('places.roomSaved'), { type: 'success' });
      onClose();
      onSaved();
    } else if (!res.announced) notify(translate('places.roomSaveFailed', { message: res.message }), { type: 'error' });
  };

  return (
    <Dialog open={room !== null} onClose={onClose} maxWidth="xs" fullWidth data-testid="room-dialog">
      <DialogTitle>{translate(editing ? 'places.editRoom' : 'places.addRoom')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        <TextField
          size="small"
          required
          label={translate('places.roomName')}
          placeholder={translate('places.roomNamePlaceholder')}
          value={name}
          onChange={(e) => (setName(e.target.value), setError(''))}
          error={Boolean(error)}
          helperText={error || ' '}
          slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'room-name' } }}
        />
        <TextField size="small" select label={translate('places.roomType')} value={type} onChange={(e) => setType(e.target.value)} slotProps={{ htmlInput: { 'data-testid': 'room-type' } }}>
          <MenuItem value="">
            <em>-</em>
          </MenuItem>
          {optionItems(options)}
        </TextField>
      </DialogContent>
      <DialogFooter onCancel={onClose} cancelWhileBusy onSubmit={() => void save()} submitTestId="room-save" busy={busy} />
    </Dialog>
  );
}
