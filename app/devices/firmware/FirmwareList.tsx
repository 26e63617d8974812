import { useMemo, useState } from 'react';
import { Box } from '@mui/material';
import { useRefresh, useTranslate } from 'react-admin';
import { useCans } from '../../auth/useCan';
import { conditionKey, permissionOf } from '../../components/api';
import { useConfirmedCall } from '../../components/useConfirmedCall';
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
import { TextAction } from '../../components/IconAction';

interface Filters {
  name: string;
  product: string | number;
}
const EMPTY: Filters = { name: '', product: '' };

const productName = (row: FirmwareRow) => String((row.product as { fName?: unknown } | null | undefined)?.fName ?? row.fProductId ?? '-');

/** Firmware page: search by name and product, the versions in a table, add/edit, delete and the upgrade drawer. */
export function FirmwareList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const { confirmCall, dialog } = useConfirmedCall();
  const can = useCans({ add: permissionOf(config, 'save', 'firmware:add', 'create'), edit: permissionOf(config, 'save', 'firmware:edit', 'update'), del: permissionOf(config, 'delete', 'firmware:del') });

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
    confirmCall(translate('firmware.confirmDelete'), 'firmware.delete', { fId: row.fId }, {
      done: () => translate('firmware.deleteSuccess'),
      failed: ({ message }) => `${translate('firmware.deleteFailed')}${message ? `:${message}` : ''}`,
      after: () => {
        // The last row of a later page is gone: its page goes with it.
        if (list.rows.length === 1 && page > 1) setPage(page - 1);
        refresh();
      },
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
        actions={can.add && <AddButton onClick={() => setEditing(null)} label={translate('firmware.add')} testId="firmware-add" />}
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
                <TextAction kind="view" onClick={() => setViewing(row)} testId="firmware-view" />
                {can.edit && <TextAction kind="edit" onClick={() => setEditing(row)} testId="firmware-edit" />}
                {can.del && <TextAction kind="delete" onClick={() => remove(row)} testId="firmware-delete" />}
              </>
            ),
          },
        ]}
        pager={pagerFromOne(list, { sizes: config.list.pageSizes, onSize: setPerPage, testId: 'firmware-pagination' })}
      />
      <FirmwareForm config={config} open={editing !== undefined} record={editing ?? null} onClose={() => setEditing(undefined)} />
      <FirmwareDrawer config={config} row={viewing} onClose={() => setViewing(null)} />
      {dialog}
    </Box>
  );
}

export default FirmwareList;
