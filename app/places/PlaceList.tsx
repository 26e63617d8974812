import { useCallback, useEffect, useState } from 'react';
import { Box, Button, LinearProgress, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import MeetingRoomIcon from '@mui/icons-material/MeetingRoomOutlined';
import { useNotify, useTranslate } from 'react-admin';
import { useCan } from '../auth/useCan';
import { useConfirm } from '../components/ConfirmDialog';
import { EmptyRow, EmptyState } from '../components/EmptyState';
import { FormDialog, type Row } from '../components/FormDialog';
import { useIsAdmin } from '../components/lookups';
import { request } from '../devices/tabs/timers/api';
import type { ResourceConfig } from '../resources/types';
import { PAGE_SIZE, PLACE_CODES, PLACE_PATHS, placeRefusal, type Page, type Place } from './api';
import { RoomsDialog } from './RoomsDialog';
import { DistrictInput } from './DistrictInput';

/** The district is picked from the area tree; its code travels with the name the picker fills. */
const DISTRICT_INPUTS = { fCityName: DistrictInput };
const DISTRICT_KEYS = ['fCityCode'];
import { Pager } from '../components/Pager';
import { IconAction } from '../components/IconAction';

/** Place page (spec 002 §9): search by name, 10 a page, with rooms, edit and delete per place. */
export function PlaceList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const notify = useNotify();
  const isAdmin = useIsAdmin();
  const canList = useCan(PLACE_CODES.list);
  const canAdd = useCan(PLACE_CODES.add);
  const canEdit = useCan(PLACE_CODES.edit);
  const canDelete = useCan(PLACE_CODES.del);
  const { ask, dialog } = useConfirm();
  const [draft, setDraft] = useState('');
  const [name, setName] = useState('');
  const [page, setPage] = useState(0);
  const [data, setData] = useState<Page<Place>>({ records: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState<Place | null | undefined>(undefined);
  const [rooms, setRooms] = useState<Place | null>(null);

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const res = await request<Page<Place>>(PLACE_PATHS.list, { current: page + 1, size: PAGE_SIZE, condition: { name } });
    setLoading(false);
    if (res.ok && res.data) setData(res.data);
  }, [canList, page, name]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = (p: Place) =>
    ask(translate('places.confirmDelete'), async () => {
      const res = await request(PLACE_PATHS.delete, { fId: p.fId });
      if (res.ok) {
        notify(translate('resources.place.notifications.delete'), { type: 'success' });
        void load();
      } else if (!res.announced) notify(translate('places.deleteFailed', { message: placeRefusal(translate, res.message) }), { type: 'error' });
    });

  if (!canList) return <EmptyState />;

  return (
    <Box data-testid="place-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper
        variant="outlined"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(0);
          setName(draft.trim());
        }}
        sx={{ p: 2, display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}
      >
        <TextField size="small" label={translate('places.name')} placeholder={translate('places.namePlaceholder')} value={draft} onChange={(e) => setDraft(e.target.value)} slotProps={{ htmlInput: { 'data-testid': 'place-search-name' } }} />
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid="place-search">
          {translate('common.query')}
        </Button>
        <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={() => (setDraft(''), setName(''), setPage(0))} data-testid="place-reset">
          {translate('common.reset')}
        </Button>
        <Box sx={{ flex: 1 }} />
        {canAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)} data-testid="place-add">
            {translate('common.add')}
          </Button>
        )}
      </Paper>
      <Paper variant="outlined">
        <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
        <TableContainer>
          <Table size="small" data-testid="place-table">
            <TableHead>
              <TableRow>
                <TableCell>{translate('places.name')}</TableCell>
                <TableCell>{translate('places.district')}</TableCell>
                {isAdmin && <TableCell>{translate('places.owner')}</TableCell>}
                <TableCell align="right">{translate('places.rooms')}</TableCell>
                <TableCell align="right">{translate('places.devices')}</TableCell>
                <TableCell align="right">{translate('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.records.map((p) => (
                <TableRow key={p.fId} hover data-testid="place-row" data-id={p.fId}>
                  <TableCell sx={{ fontWeight: 500 }}>{p.fName}</TableCell>
                  <TableCell>{p.fCityName || '-'}</TableCell>
                  {isAdmin && <TableCell>{p.ownerName || '-'}</TableCell>}
                  <TableCell align="right" data-testid="place-room-count">{p.roomCount ?? 0}</TableCell>
                  <TableCell align="right" data-testid="place-device-count">{p.deviceCount ?? 0}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Button size="small" startIcon={<MeetingRoomIcon fontSize="small" />} onClick={() => setRooms(p)} data-testid="place-rooms">
                      {translate('places.roomsAction')}
                    </Button>
                    {canEdit && (
                      <IconAction kind="edit" onClick={() => setEditing(p)} testId="place-edit" />
                    )}
                    {canDelete && (
                      <IconAction kind="delete" onClick={() => remove(p)} testId="place-delete" />
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {data.records.length === 0 && !loading && <EmptyRow columns={6} message={translate('places.empty')} />}
            </TableBody>
          </Table>
        </TableContainer>
        <Pager
          component="div"
          count={data.total}
          page={page}
          onPageChange={(_e, n) => setPage(n)}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[PAGE_SIZE]}
        />
      </Paper>
      <FormDialog
        config={config}
        open={editing !== undefined}
        record={(editing ?? null) as Row | null}
        onClose={() => setEditing(undefined)}
        onSaved={() => void load()}
        failureKey="places.saveFailed"
        refusal={placeRefusal}
        maxWidth="sm"
        inputs={DISTRICT_INPUTS}
        extraKeys={DISTRICT_KEYS}
      />
      <RoomsDialog place={rooms} onClose={() => setRooms(null)} onChanged={() => void load()} />
      {dialog}
    </Box>
  );
}

export default PlaceList;
