import { useState } from 'react';
import { Button } from '@mui/material';
import MeetingRoomIcon from '@mui/icons-material/MeetingRoomOutlined';
import { useTranslate } from 'react-admin';
import { useCans } from '../../auth/useCan';
import { useConfirmedCall } from '../../components/useConfirmedCall';
import { AddButton } from '../../components/AddButton';
import { PageColumn } from '../../components/PageColumn';
import { SearchBar, SearchText } from '../../components/SearchBar';
import { useSearch } from '../../components/useSearch';
import { FormDialog, type Row } from '../../components/FormDialog';
import { useIsAdmin } from '../../components/lookups';
import { usePagedCall } from '../../components/usePagedCall';
import type { ResourceConfig } from '../../resources/types';
import { PAGE_SIZE, PLACE_CODES, PLACE_CALLS, failureText, type Place } from './api';
import { RoomsDialog } from './RoomsDialog';
import { DistrictInput } from './DistrictInput';

/** The district is picked from the area tree; its code travels with the name the picker fills. */
const DISTRICT_INPUTS = { fCityName: DistrictInput };
const DISTRICT_KEYS = ['fCityCode'];
import { DataTable, actionsColumn } from '../../components/DataTable';
import { IconAction } from '../../components/IconAction';

/** Place page (spec 002 §9): search by name, 10 a page, with rooms, edit and delete per place. */
export function PlaceList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const isAdmin = useIsAdmin();
  const { list: canList, add: canAdd, edit: canEdit, del: canDelete } = useCans(PLACE_CODES);
  const { confirmCall, dialog } = useConfirmedCall();
  const { draft, setDraft, applied: name, page, setPage, ...search } = useSearch('', { first: 0 });
  const [editing, setEditing] = useState<Place | null | undefined>(undefined);
  const [rooms, setRooms] = useState<Place | null>(null);

  // A failed ask keeps the places shown.
  const places = usePagedCall(PLACE_CALLS.list, canList ? { current: page + 1, size: PAGE_SIZE, condition: { name: name.trim() } } : null, { keep: true });

  const remove = (p: Place) =>
    confirmCall(translate('places.confirmDelete'), PLACE_CALLS.delete, { fId: p.fId }, {
      done: () => translate('resources.place.notifications.delete'),
      failed: (res) => failureText(translate, 'places.deleteFailed', res),
      after: places.reload,
    });

  return (
    <PageColumn testId="place-page" allowed={canList}>
      <SearchBar
        form
        onQuery={search.query}
        onReset={search.reset}
        testIds={{ query: 'place-search', reset: 'place-reset' }}
        actions={canAdd && <AddButton onClick={() => setEditing(null)} testId="place-add" />}
        sx={{ gap: 1.5 }}
      >
        <SearchText label={translate('places.name')} placeholder={translate('places.namePlaceholder')} value={draft} onChange={setDraft} testId="place-search-name" />
      </SearchBar>
      <DataTable
        {...places.table}
        framed
        empty={translate('places.empty')}
        tableProps={{ 'data-testid': 'place-table' }}
        rowProps={(p) => ({ 'data-testid': 'place-row', 'data-id': p.fId })}
        columns={[
          { key: 'name', header: translate('places.name'), cellSx: { fontWeight: 500 }, cell: (p) => p.fName },
          { key: 'district', header: translate('places.district'), cell: (p) => p.fCityName || '-' },
          ...(isAdmin ? [{ key: 'owner', header: translate('places.owner'), cell: (p: Place) => p.ownerName || '-' }] : []),
          { key: 'rooms', header: translate('places.rooms'), align: 'right', cellProps: () => ({ 'data-testid': 'place-room-count' }), cell: (p) => p.roomCount ?? 0 },
          { key: 'devices', header: translate('places.devices'), align: 'right', cellProps: () => ({ 'data-testid': 'place-device-count' }), cell: (p) => p.deviceCount ?? 0 },
          actionsColumn(translate('common.actions'), (p: Place) => (
            <>
              <Button size="small" startIcon={<MeetingRoomIcon fontSize="small" />} onClick={() => setRooms(p)} data-testid="place-rooms">
                {translate('places.roomsAction')}
              </Button>
              {canEdit && <IconAction kind="edit" onClick={() => setEditing(p)} testId="place-edit" />}
              {canDelete && <IconAction kind="delete" onClick={() => remove(p)} testId="place-delete" />}
            </>
          )),
        ]}
        pager={{ count: places.data.total, page, rowsPerPage: PAGE_SIZE, onPage: setPage }}
      />
      <FormDialog
        config={config}
        open={editing !== undefined}
        record={(editing ?? null) as Row | null}
        onClose={() => setEditing(undefined)}
        onSaved={places.reload}
        failureKey="places.saveFailed"
        maxWidth="sm"
        inputs={DISTRICT_INPUTS}
        extraKeys={DISTRICT_KEYS}
      />
      <RoomsDialog place={rooms} onClose={() => setRooms(null)} onChanged={places.reload} />
      {dialog}
    </PageColumn>
  );
}

export default PlaceList;
