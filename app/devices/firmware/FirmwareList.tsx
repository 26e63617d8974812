import { useMemo, useState } from 'react';
import { Box, Button, Paper, TextField } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useGetList, useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { useCan } from '../../auth/useCan';
import { conditionKey, defaultSort, permissionOf } from '../../components/api';
import { useConfirm } from '../../components/ConfirmDialog';
import { OptionSelect } from '../../components/FieldInput';
import { useAllProducts } from '../../components/lookups';
import type { FieldConfig, ResourceConfig } from '../../resources/types';
import { FirmwareForm } from './FirmwareForm';
import { FirmwareDrawer } from './FirmwareDrawer';
import { DataTable } from '../../components/DataTable';
import type { FirmwareRow } from './endpoints';

interface Filters {
  name: string;
  product: string | number;
}
const EMPTY: Filters = { name: '', product: '' };

const productName = (row: FirmwareRow) => String((row.product as { fName?: unknown } | null | undefined)?.fName ?? row.fProductId ?? '-');

/** Firmware page: search by name and product, the versions in a table, add/edit, delete and the upgrade drawer. */
export function FirmwareList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const refresh = useRefresh();
  const confirm = useConfirm();
  const canAdd = useCan(permissionOf(config, 'save', 'firmware:add', 'create'));
  const canEdit = useCan(permissionOf(config, 'save', 'firmware:edit', 'update'));
  const canDelete = useCan(permissionOf(config, 'delete', 'firmware:del'));

  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(config.list.pageSize);
  const [editing, setEditing] = useState<FirmwareRow | null | undefined>(undefined);
  const [viewing, setViewing] = useState<FirmwareRow | null>(null);

  const { options: products } = useAllProducts();
  const productField = (config.fields.fProductId ?? { source: 'fProductId', type: 'integer', label: 'firmware.filter.product', messages: {} }) as FieldConfig;

  const filter = useMemo(() => {
    const f: Record<string, unknown> = {};
    if (applied.name.trim()) f[conditionKey(config, 'fName', 'name')] = applied.name.trim();
    if (applied.product !== '') f[conditionKey(config, 'fProductId', 'type')] = applied.product;
    return f;
  }, [applied, config]);

  const { data, total, isFetching } = useGetList<FirmwareRow & { id: number }>(
    config.name,
    { pagination: { page, perPage }, sort: defaultSort(config), filter },
    { placeholderData: (previous) => previous },
  );
  const rows = data ?? [];

  const query = () => {
    setApplied(draft);
    setPage(1);
    refresh();
  };
  const reset = () => {
    setDraft(EMPTY);
    setApplied(EMPTY);
    setPage(1);
  };

  const remove = (row: FirmwareRow) =>
    confirm.ask(translate('firmware.confirmDelete'), async () => {
      try {
        await api.call('firmware.delete', { fId: row.fId });
        notify(translate('firmware.deleteSuccess'), { type: 'success' });
        if (rows.length === 1 && page > 1) setPage(page - 1);
        refresh();
      } catch (error) {
        if (error instanceof ApiError && error.status !== 200) return;
        notify(`${translate('firmware.deleteFailed')}${error instanceof Error && error.message ? `:${error.message}` : ''}`, { type: 'error' });
      }
    });

  const head = ['name', 'version', 'versionCode', 'product', 'created'];
  const cellOf = (h: string, row: FirmwareRow) =>
    h === 'name' ? String(row.fName ?? '-') : h === 'version' ? String(row.fVersion ?? '-') : h === 'versionCode' ? String(row.fVersionCode ?? '-') : h === 'product' ? productName(row) : String(row.fIntime ?? '-');
  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid="firmware-list">
      <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        <TextField
          size="small"
          label={translate('firmware.filter.name')}
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          onKeyDown={(e) => e.key === 'Enter' && query()}
          sx={{ width: 220 }}
          slotProps={{ htmlInput: { 'data-testid': 'firmware-filter-name' } }}
        />
        <Box sx={{ width: 220 }}>
          <OptionSelect
            field={productField}
            value={draft.product}
            onChange={(v) => setDraft({ ...draft, product: v as string | number })}
            options={products}
            label={translate('firmware.filter.product')}
            testId="firmware-filter-product"
            required={false}
            error=""
          />
        </Box>
        <Button variant="contained" startIcon={<SearchIcon />} onClick={query} data-testid="firmware-query">
          {translate('common.query')}
        </Button>
        <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={reset} data-testid="firmware-reset">
          {translate('common.reset')}
        </Button>
        <Box sx={{ flex: 1 }} />
        {canAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)} data-testid="firmware-add">
            {translate('firmware.add')}
          </Button>
        )}
      </Paper>
      <DataTable
        rows={rows}
        rowKey={(row) => row.fId}
        loading={isFetching}
        progressBar
        bordered
        stickyHeader
        tableProps={{ 'data-testid': 'firmware-table' }}
        rowProps={(row) => ({ 'data-testid': 'firmware-row', 'data-id': row.fId })}
        columns={[
          ...head.map((h) => ({ key: h, header: translate(`firmware.columns.${h}`), headerSx: { fontWeight: 600, whiteSpace: 'nowrap' }, cellSx: h === 'created' ? { whiteSpace: 'nowrap' } : undefined, cell: (row: FirmwareRow) => cellOf(h, row) })),
          {
            key: 'actions',
            header: translate('common.actions'),
            headerSx: { fontWeight: 600 },
            cellSx: { whiteSpace: 'nowrap' },
            cell: (row) => (
              <>
                <Button size="small" onClick={() => setViewing(row)} data-testid="firmware-view">
                  {translate('common.view')}
                </Button>
                {canEdit && (
                  <Button size="small" onClick={() => setEditing(row)} data-testid="firmware-edit">
                    {translate('common.edit')}
                  </Button>
                )}
                {canDelete && (
                  <Button size="small" color="error" onClick={() => remove(row)} data-testid="firmware-delete">
                    {translate('common.delete')}
                  </Button>
                )}
              </>
            ),
          },
        ]}
        pager={{
          count: total ?? 0,
          page: Math.max(0, page - 1),
          rowsPerPage: perPage,
          sizes: config.list.pageSizes,
          onPage: (p) => setPage(p + 1),
          onSize: (n) => {
            setPerPage(n);
            setPage(1);
          },
          testId: 'firmware-pagination',
        }}
      />
      <FirmwareForm config={config} open={editing !== undefined} record={editing ?? null} onClose={() => setEditing(undefined)} />
      <FirmwareDrawer config={config} row={viewing} onClose={() => setViewing(null)} />
      {confirm.dialog}
    </Box>
  );
}

export default FirmwareList;
