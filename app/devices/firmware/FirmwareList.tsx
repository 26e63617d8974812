import { useMemo, useState } from 'react';
import { Box, Button } from '@mui/material';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { useCan } from '../../auth/useCan';
import { conditionKey, permissionOf } from '../../components/api';
import { useConfirm } from '../../components/ConfirmDialog';
import { OptionSelect } from '../../components/FieldInput';
import { useAllProducts } from '../../components/lookups';
import type { FieldConfig, ResourceConfig } from '../../resources/types';
import { FirmwareForm } from './FirmwareForm';
import { FirmwareDrawer } from './FirmwareDrawer';
import { DataTable, pagerFromOne } from '../../components/DataTable';
import { useResourcePage } from '../../components/useResourcePage';
import { AddButton } from '../../components/AddButton';
import { SearchBar, SearchText } from '../../components/SearchBar';
import { useSearch } from '../../components/useSearch';
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

  const { draft, patch, applied, page, setPage, ...search } = useSearch(EMPTY);
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

  const list = useResourcePage<FirmwareRow>(config, { filter, page, perPage, onPageChange: setPage });

  const query = () => {
    search.query();
    refresh();
  };

  const remove = (row: FirmwareRow) =>
    confirm.ask(translate('firmware.confirmDelete'), async () => {
      try {
        await api.call('firmware.delete', { fId: row.fId });
        notify(translate('firmware.deleteSuccess'), { type: 'success' });
        if (list.rows.length === 1 && page > 1) setPage(page - 1);
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
      <SearchBar
        onQuery={query}
        onReset={search.reset}
        testIds={{ query: 'firmware-query', reset: 'firmware-reset' }}
        actions={canAdd && <AddButton onClick={() => setEditing(null)} label={translate('firmware.add')} testId="firmware-add" />}
        sx={{ mb: 2, alignItems: 'flex-start' }}
      >
        <SearchText label={translate('firmware.filter.name')} value={draft.name} onChange={(name) => patch({ name })} onEnter={query} testId="firmware-filter-name" sx={{ width: 220 }} />
        <Box sx={{ width: 220 }}>
          <OptionSelect
            field={productField}
            value={draft.product}
            onChange={(v) => patch({ product: v as string | number })}
            options={products}
            label={translate('firmware.filter.product')}
            testId="firmware-filter-product"
            required={false}
            error=""
          />
        </Box>
      </SearchBar>
      <DataTable
        rows={list.rows}
        rowKey={(row) => row.fId}
        loading={list.loading} progressBar bordered stickyHeader
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
        pager={pagerFromOne(list, { sizes: config.list.pageSizes, onSize: setPerPage, testId: 'firmware-pagination' })}
      />
      <FirmwareForm config={config} open={editing !== undefined} record={editing ?? null} onClose={() => setEditing(undefined)} />
      <FirmwareDrawer config={config} row={viewing} onClose={() => setViewing(null)} />
      {confirm.dialog}
    </Box>
  );
}

export default FirmwareList;
