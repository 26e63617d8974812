import { useCallback, useEffect, useState } from 'react';
import { Box, Button, MenuItem, Paper, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useNotify, useTranslate } from 'react-admin';
import { useCan } from '../../auth/useCan';
import { CardGrid } from '../../components/CardGrid';
import { useConfirm } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { useRequest } from '../../components/calls';
import { CARD_SIZE, GATEWAY_CODES, type DeviceRow, type Page } from './api';
import { GatewayCard } from './GatewayCard';
import { DevicePickerDialog } from './DevicePickerDialog';

/** Gateway page: search by number or name, 8 gateway cards a page, children bound and unbound per card. */
export function GatewayPage() {
  const translate = useTranslate();
  const request = useRequest();
  const notify = useNotify();
  const canList = useCan(GATEWAY_CODES.list);
  const canAdd = useCan(GATEWAY_CODES.add);
  const { ask, dialog } = useConfirm();
  const [selectType, setSelectType] = useState(1);
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState({ selectType: 1, keyword: '' });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page>({ records: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const [adding, setAdding] = useState<DeviceRow | null>(null);

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const res = await request<Page>('gateway.cards', { current: page, size: CARD_SIZE, condition: { keyword: applied.keyword, select_type: applied.selectType, type_id: 2 } });
    setLoading(false);
    setData(res.ok && res.data ? res.data : { records: [], total: 0 });
  }, [canList, page, applied]);
  useEffect(() => {
    void load();
  }, [load, version]);

  const changed = () => setVersion((v) => v + 1);

  const unbind = (gateway: DeviceRow, child: DeviceRow) =>
    ask(translate('gateways.confirmUnbind'), async () => {
      const res = await request('gateway.unbind', { fGatewayId: gateway.fId, fDeviceId: child.fId });
      if (res.ok) {
        notify(res.message || translate('gateways.unbound'), { type: 'success' });
        changed();
      } else if (!res.announced) notify(res.message || translate('gateways.unbindFailed'), { type: 'error' });
    });

  const bind = async (picked: DeviceRow[]) => {
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

  if (!canList) return <EmptyState />;

  return (
    <Box data-testid="gateway-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper
        variant="outlined"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setApplied({ selectType, keyword: keyword.trim() });
        }}
        sx={{ p: 2, display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}
      >
        <TextField select size="small" label={translate('gateways.selectType')} value={selectType} onChange={(e) => setSelectType(Number(e.target.value))} sx={{ width: 190 }} slotProps={{ htmlInput: { 'data-testid': 'gateway-select-type' } }}>
          <MenuItem value={1}>{translate('gateways.byNumber')}</MenuItem>
          <MenuItem value={2}>{translate('gateways.byName')}</MenuItem>
        </TextField>
        <TextField size="small" label={translate('gateways.keyword')} value={keyword} onChange={(e) => setKeyword(e.target.value)} slotProps={{ htmlInput: { 'data-testid': 'gateway-keyword' } }} />
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid="gateway-search">
          {translate('common.query')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<RestartAltIcon />}
          onClick={() => {
            setSelectType(1);
            setKeyword('');
            setPage(1);
            setApplied({ selectType: 1, keyword: '' });
          }}
          data-testid="gateway-reset"
        >
          {translate('common.reset')}
        </Button>
      </Paper>
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
    </Box>
  );
}

export default GatewayPage;
