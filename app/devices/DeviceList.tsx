import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box, Checkbox, FormControlLabel, Paper, ToggleButton, ToggleButtonGroup, Tooltip } from '@mui/material';
import ViewListIcon from '@mui/icons-material/ViewList';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import { useLocation, useParams, usePermissions, useRefresh, useTranslate } from 'react-admin';
import { useCans } from '../auth/useCan';
import { conditionKey, permissionOf } from '../components/api';
import { CardGrid } from '../components/CardGrid';
import { useConfirmedCall } from '../components/useConfirmedCall';
import { FormDialog } from '../components/FormDialog';
import { useAllProducts } from '../components/lookups';
import { AddButton } from '../components/AddButton';
import { SearchBar } from '../components/SearchBar';
import { useSearch } from '../components/useSearch';
import { useResourcePage } from '../components/useResourcePage';
import { useApi, useCallQuery, type Outcome } from '../components/calls';
import type { FormValues } from '../components/validate';
import type { ResourceConfig } from '../resources/types';
import { DeviceCounters, COUNTER_CONDITIONS, type CounterKey } from './DeviceCounters';
import { DeviceDrawer } from './DeviceDrawer';
import { DeviceCard, DeviceTable, type DeviceActions } from './DeviceRows';
import type { DeviceRow } from './cells';
import { useDeviceEvents, type DeviceEvent } from '../platform';
import { SwitchToggle } from './live/SwitchToggle';
import { BatchBar, BATCH_COMMANDS } from './live/BatchBar';
import { BulkToolbar } from './bulk/BulkToolbar';
import { useDeviceUse } from './bulk/useDeviceUse';
import { BY_NUMBER, KeywordBy, ProductFilter } from './DeviceSearch';

/** Auto-refresh (spec 000 §4): ask the shown devices for fresh values, then reload the list a little later. */
const AUTO_REFRESH_MS = 55_000;
const AUTO_RELOAD_MS = 5_000;

/** Product types whose devices report a switch left on, so they take a "not closed" reminder time. */
const REMINDER_TYPES = [1, 3, 5, 6];
const NO_KEYWORD = { keyword: '', selectType: BY_NUMBER };

type View = 'table' | 'cards';

/**
 * Device list: counters that filter, product and keyword search, a table or card view, row actions gated
 * by permission codes, the add/edit dialog and the detail drawer.
 */
export function DeviceList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const { confirmCall, dialog } = useConfirmedCall();
  const location = useLocation();
  const params = useParams<{ deviceNumber?: string }>();
  const api = useApi();

  const can = useCans({
    add: permissionOf(config, 'save', 'device:add', 'create'),
    edit: permissionOf(config, 'save', 'device:edit', 'update'),
    status: permissionOf(config, 'able', 'device:status'),
    del: permissionOf(config, 'delete', 'device:del'),
    control: 'device:control',
  });
  const batchCodes = BATCH_COMMANDS.map((b) => b.code);
  const { permissions } = usePermissions<string[]>();
  const canBatch = Array.isArray(permissions) && batchCodes.some((c) => permissions.includes(c));
  const [selected, setSelected] = useState<number[]>([]);
  const [autoRefresh, setAutoRefresh] = useState(false);
  // What the live stream said about a device since the list was loaded.
  const [live, setLive] = useState<Record<number, Partial<DeviceRow>>>({});

  const queryProduct = new URLSearchParams(location.search).get('product_id') ?? '';
  const routeNumber = params.deviceNumber ?? '';

  const [productId, setProductId] = useState<string>(queryProduct);
  // The product applies at once; the keyword on Query.
  const { draft, patch, applied, page, setPage, ...search } = useSearch(NO_KEYWORD, { initial: { keyword: routeNumber, selectType: BY_NUMBER } });
  const [counter, setCounter] = useState<CounterKey>('all');
  const [view, setView] = useState<View>(config.list.view === 'cards' ? 'cards' : 'table');
  const [tablePerPage, setTablePerPage] = useState(config.list.pageSize || 10);
  const [editing, setEditing] = useState<DeviceRow | null | undefined>(undefined);
  const [viewing, setViewing] = useState<DeviceRow | null>(null);

  // Following a product's device-count link or a device link while the page is open re-targets the list.
  useEffect(() => {
    setProductId(queryProduct);
    setPage(1);
  }, [queryProduct]);
  useEffect(() => {
    if (routeNumber) search.query({ keyword: routeNumber, selectType: BY_NUMBER });
  }, [routeNumber]);

  const perPage = view === 'cards' ? (config.list.cardPageSize ?? 12) : tablePerPage;
  const keywordKey = conditionKey(config, 'fNumber', 'keyword');
  const selectKey = config.list.filters.find((f) => f.key === keywordKey)?.selectBy?.key ?? 'select_type';
  const productKey = conditionKey(config, 'fProductId', 'product_id');

  const filter = useMemo(() => {
    const condition: Record<string, unknown> = { ...COUNTER_CONDITIONS[counter] };
    if (productId) condition[productKey] = Number(productId);
    if (applied.keyword.trim()) {
      condition[keywordKey] = applied.keyword.trim();
      condition[selectKey] = applied.selectType;
    }
    return condition;
  }, [counter, productId, applied, keywordKey, selectKey, productKey]);

  const list = useResourcePage<DeviceRow>(config, { filter, page, perPage, onPageChange: setPage });
  const data = list.rows;
  const rows = useMemo(() => data.map((r) => (live[r.fId] ? { ...r, ...live[r.fId] } : r)), [data, live]);

  const totals = useCallQuery('device.total', { productId: productId ? Number(productId) : '' });

  const { products } = useAllProducts();

  const reloadAll = () => {
    refresh();
    totals.reload();
  };

  // Online and switch changes arrive without a reload; the counters follow, at most once a second.
  const countersDue = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onLive = useCallback(
    (e: DeviceEvent) => {
      const { fId, fNumber: _number, ...change } = e;
      setLive((prev) => ({ ...prev, [fId]: { ...prev[fId], ...change } }));
      if (e.tOnline !== undefined && !countersDue.current) {
        countersDue.current = setTimeout(() => {
          countersDue.current = null;
          totals.reload();
        }, 1000);
      }
    },
    [totals.reload],
  );
  useDeviceEvents(onLive);
  useEffect(() => () => void (countersDue.current && clearTimeout(countersDue.current)), []);
  useEffect(() => setLive({}), [data]);

  const shownIds = rows.map((r) => r.fId).join(',');
  useEffect(() => {
    if (!autoRefresh) return;
    let reload: ReturnType<typeof setTimeout> | undefined;
    const timer = setInterval(() => {
      const deviceIds = shownIds ? shownIds.split(',').map(Number) : [];
      void api.call('command.refresh', { condition: { deviceIds } }).catch(() => undefined);
      reload = setTimeout(reloadAll, AUTO_RELOAD_MS);
    }, AUTO_REFRESH_MS);
    return () => {
      clearInterval(timer);
      if (reload) clearTimeout(reload);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoRefresh, shownIds]);
  const query = () => {
    search.query();
    reloadAll();
  };
  const reset = () => {
    search.reset();
    setProductId('');
    setCounter('all');
  };

  const failed = ({ message }: Outcome<unknown>) => translate('device.operationFailed', { message });
  const toggle = (row: DeviceRow) => {
    const activate = Number(row.fStatus) !== 1;
    const own = activate ? 'device.activateSuccess' : 'device.deregisterSuccess';
    confirmCall(translate(activate ? 'device.confirmActivate' : 'device.confirmDeregister'), activate ? 'device.able' : 'device.disable', { fId: row.fId }, {
      done: () => translate(config.notifications?.[activate ? 'able' : 'disable'] ?? own, { _: translate(own) }),
      failed,
      after: reloadAll,
    });
  };
  const remove = (row: DeviceRow) =>
    confirmCall(translate('device.confirmDelete'), 'device.delete', { fId: row.fId }, {
      done: () => translate(config.notifications?.delete ?? 'device.deleteSuccess', { _: translate('device.deleteSuccess') }),
      failed,
      after: () => {
        // The last row of a later page is gone: its page goes with it.
        if (rows.length === 1 && page > 1) setPage(page - 1);
        reloadAll();
      },
    });

  const toggleUse = useDeviceUse(reloadAll);
  const actions: DeviceActions = {
    onView: can.edit ? undefined : setViewing,
    onEdit: can.edit ? setEditing : undefined,
    onToggle: can.status ? toggle : undefined,
    onDelete: can.del ? remove : undefined,
    onUse: toggleUse,
  };

  // The reminder time applies only to products of some types; the chosen product decides.
  const isVisible = (source: string, values: FormValues) => {
    if (source !== 'fRemindTime') return true;
    const chosen = products.find((p) => String(p.fId) === String(values.fProductId));
    const type = chosen?.fDeviceType ?? (editing?.tProduct as Record<string, unknown> | undefined)?.fDeviceType;
    return REMINDER_TYPES.includes(Number(type));
  };

  const changeView = (next: View | null) => {
    if (!next || next === view) return;
    setView(next);
    setPage(1);
  };

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid="device-list">
      <DeviceCounters
        totals={totals.data}
        active={counter}
        onSelect={(key) => {
          setCounter(key);
          setPage(1);
        }}
      />

      <SearchBar
        onQuery={query}
        onReset={reset}
        testIds={{ query: 'device-query', reset: 'device-reset' }}
        extra={
          <FormControlLabel
            control={<Checkbox size="small" checked={autoRefresh} onChange={(e) => setAutoRefresh(e.target.checked)} data-testid="device-auto-refresh" />}
            label={translate('device.autoRefresh')}
          />
        }
        actions={
          <>
            <ToggleButtonGroup size="small" exclusive value={view} onChange={(_e, v: View | null) => changeView(v)} data-testid="device-view-toggle">
              <Tooltip title={translate('device.view.table')}>
                <ToggleButton value="table" aria-label={translate('device.view.table')} data-testid="device-view-table">
                  <ViewListIcon fontSize="small" />
                </ToggleButton>
              </Tooltip>
              <Tooltip title={translate('device.view.cards')}>
                <ToggleButton value="cards" aria-label={translate('device.view.cards')} data-testid="device-view-cards">
                  <ViewModuleIcon fontSize="small" />
                </ToggleButton>
              </Tooltip>
            </ToggleButtonGroup>
            <BulkToolbar condition={filter} selected={selected} onImported={reloadAll} />
            {can.add && <AddButton onClick={() => setEditing(null)} label={translate('device.add')} testId="device-add" />}
          </>
        }
        sx={{ mb: 2 }}
      >
        <ProductFilter
          value={productId}
          onChange={(id) => {
            setProductId(id);
            setPage(1);
          }}
          testId="device-filter-product"
        />
        <KeywordBy by={draft.selectType} keyword={draft.keyword} onChange={patch} onEnter={query} testIds={{ by: 'device-search-type', keyword: 'device-search' }} />
      </SearchBar>

      {canBatch && view === 'table' && (
        <Paper variant="outlined" sx={{ p: 1, mb: 1, display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <Box sx={{ fontSize: 13, color: 'text.secondary' }}>{translate('device.batch.selected', { count: selected.length })}</Box>
          <BatchBar selected={selected} onDone={reloadAll} />
        </Paper>
      )}
      {view === 'table' ? (
        <DeviceTable
          switchCell={can.control ? (row) => <SwitchToggle row={row} onChanged={reloadAll} /> : undefined}
          selected={canBatch ? selected : undefined}
          onSelect={canBatch ? setSelected : undefined}
          config={config}
          {...list}
          rows={rows}
          actions={actions}
          onPerPageChange={setTablePerPage}
          onOpen={setViewing}
        />
      ) : (
        <CardGrid
          {...list}
          rows={rows}
          rowKey={(row) => row.fId}
          testId="device-grid"
          renderCard={(row) => <DeviceCard config={config} row={row} actions={actions} onOpen={setViewing} />}
        />
      )}

      <FormDialog
        config={config}
        open={editing !== undefined}
        record={editing}
        onClose={() => setEditing(undefined)}
        onSaved={() => totals.reload()}
        isVisible={isVisible}
        failureKey="device.saveFailed"
      />
      <DeviceDrawer config={config} row={viewing} onClose={() => setViewing(null)} />
      {dialog}
    </Box>
  );
}

export default DeviceList;
