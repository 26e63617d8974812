import { useCallback, useEffect, useState } from 'react';
import { MenuItem, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { useCans } from '../../auth/useCan';
import { CardGrid } from '../../components/CardGrid';
import { useConfirm } from '../../components/ConfirmDialog';
import { PageColumn } from '../../components/PageColumn';
import { SearchBar, SearchText } from '../../components/SearchBar';
import { useSearch } from '../../components/useSearch';
import { useRequest } from '../../components/calls';
import { CARD_SIZE, GATEWAY_CODES, type CardsPage, type ChildRow, type GatewayRow } from './api';
import { GatewayCard } from './GatewayCard';
import { DevicePickerDialog } from './DevicePickerDialog';

const EMPTY = { selectType: 1, keyword: '' };

/** Gateway page: search by number or name, 8 gateway cards a page, children bound and unbound per card. */
export function GatewayPage() {
  const translate = useTranslate();
  const request = useRequest();
  const notify = useNotify();
  const { list: canList, add: canAdd } = useCans(GATEWAY_CODES);
  const { ask, dialog } = useConfirm();
  const { draft, patch, applied, page, setPage, ...search } = useSearch(EMPTY);
  const [data, setData] = useState<Pick<CardsPage, 'records' | 'total'>>({ records: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const [adding, setAdding] = useState<GatewayRow | null>(null);

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const res = await request('gateway.cards', { current: page, size: CARD_SIZE, condition: { keyword: applied.keyword.trim(), select_type: applied.selectType, type_id: 2 } });
    setLoading(false);
    setData(res.ok && res.data ? res.data : { records: [], total: 0 });
    // Every Query asks again, even for the same filters.
  }, [canList, page, applied, search.asked]);
  useEffect(() => {
    void load();
  }, [load, version]);

  const changed = () => setVersion((v) => v + 1);

  const unbind = (gateway: GatewayRow, child: ChildRow) =>
    ask(translate('gateways.confirmUnbind'), async () => {
      const res = await request('gateway.unbind', { fGatewayId: gateway.fId, fDeviceId: child.fId });
      if (res.ok) {
        notify(res.message || translate('gateways.unbound'), { type: 'success' });
        changed();
      } else if (!res.announced) notify(res.message || translate('gateways.unbindFailed'), { type: 'error' });
    });

  const bind = async (picked: { fId: number }[]) => {
    if (!adding) return false;
    const res = await request('gateway.bind', picked.map((d) => ({ fGatewayId: adding.fId, fDeviceId: d.fId })));
    if (res.ok) {
      notify(res.message || translate('gateways.added'), { type: 'success' });
      changed();
      return true;
    }
    if (!res.announced) notify(res.message || translate('gateways.addFailed'), { type: 'error' });
    return false;
  };

  // A reset asks again too, even when nothing was searched.
  const reset = () => (search.reset(), changed());

  return (
    <PageColumn testId="gateway-page" allowed={canList}>
      <SearchBar form onQuery={search.query} onReset={reset} testIds={{ query: 'gateway-search', reset: 'gateway-reset' }} sx={{ gap: 1.5 }}>
        <TextField select size="small" label={translate('gateways.selectType')} value={draft.selectType} onChange={(e) => patch({ selectType: Number(e.target.value) })} sx={{ width: 190 }} slotProps={{ htmlInput: { 'data-testid': 'gateway-select-type' } }}>
          <MenuItem value={1}>{translate('gateways.byNumber')}</MenuItem>
          <MenuItem value={2}>{translate('gateways.byName')}</MenuItem>
        </TextField>
        <SearchText label={translate('gateways.keyword')} value={draft.keyword} onChange={(keyword) => patch({ keyword })} testId="gateway-keyword" />
      </SearchBar>
      <CardGrid
        rows={data.records}
        total={data.total}
        page={page}
        perPage={CARD_SIZE}
        onPageChange={setPage}
        rowKey={(r) => r.fId}
        loading={loading}
        minCardWidth={250}
        testId="gateway-grid"
        renderCard={(g) => <GatewayCard gateway={g} canAdd={canAdd} onAdd={setAdding} onUnbind={unbind} version={version} />}
      />
      <DevicePickerDialog
        open={adding !== null}
        title={`${translate('gateways.addTitle')} · ${String(adding?.fName || adding?.fNumber || '')}`}
        call="gateway.bindable"
        condition={{ type_id: 1, group_id: '' }}
        search="nameNumber"
        emptyMessage={translate('gateways.noneSelected')}
        onClose={() => setAdding(null)}
        onConfirm={bind}
        testId="gateway-picker"
      />
      {dialog}
    </PageColumn>
  );
}

export default GatewayPage;
