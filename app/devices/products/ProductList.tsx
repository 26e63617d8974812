import { useState } from 'react';
import { Box, Paper } from '@mui/material';
import { useRefresh, useTranslate } from 'react-admin';
import { useCans } from '../../auth/useCan';
import { conditionKey, permissionOf } from '../../components/api';
import { CardGrid } from '../../components/CardGrid';
import { useConfirmedCall } from '../../components/useConfirmedCall';
import { OptionSelect, useEnumOptions } from '../../components/FieldInput';
import { FormDialog } from '../../components/FormDialog';
import { invalidateLookups, useDictionary } from '../../components/lookups';
import { failureText } from '../../components/failure';
import type { FieldConfig, ResourceConfig } from '../../resources/types';
import { AddButton } from '../../components/AddButton';
import { SearchButtons, SearchText } from '../../components/SearchBar';
import { useSearch } from '../../components/useSearch';
import { useResourcePage } from '../../components/useResourcePage';
import { ProductCard, type ProductRow } from './ProductCard';
import { ProductDrawer } from './ProductDrawer';

interface Filters {
  number: string;
  name: string;
  categoryId: string | number;
  deviceType: string | number;
  protocol: string | number;
}

const EMPTY: Filters = { number: '', name: '', categoryId: '', deviceType: '', protocol: '' };

const fieldOr = (config: ResourceConfig, source: string, fallback: Partial<FieldConfig>): FieldConfig =>
  config.fields[source] ?? ({ source, type: 'integer', label: '', messages: {}, ...fallback } as FieldConfig);

/** Product page: filter bar, a card grid of 12 per page, and the add/edit, status, delete and detail actions. */
export function ProductList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const { confirmCall, dialog } = useConfirmedCall();
  const perPage = config.list.cardPageSize ?? config.list.pageSize ?? 12;

  const can = useCans({
    add: permissionOf(config, 'save', 'product:add', 'create'),
    edit: permissionOf(config, 'save', 'product:edit', 'update'),
    status: permissionOf(config, 'status', 'product:status'),
    del: permissionOf(config, 'delete', 'product:del'),
  });

  const { draft, patch, applied, page, setPage, ...search } = useSearch(EMPTY);
  const [editing, setEditing] = useState<ProductRow | null | undefined>(undefined);
  const [viewing, setViewing] = useState<ProductRow | null>(null);

  const keys = {
    number: conditionKey(config, 'fNumber', 'number'),
    name: conditionKey(config, 'fName', 'name'),
    categoryId: conditionKey(config, 'fCategoryId', 'categoryId'),
    deviceType: conditionKey(config, 'fDeviceType', 'deviceType'),
    protocol: conditionKey(config, 'fProtocol', 'protocol'),
  };
  const filter: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(keys)) {
    const value = applied[name as keyof Filters];
    if (value !== '') filter[key] = typeof value === 'string' ? value.trim() : value;
  }

  const list = useResourcePage<ProductRow>(config, { filter, page, perPage, onPageChange: setPage });

  const categoryField = fieldOr(config, 'fCategoryId', { dictionary: 'Product_Category' });
  const typeField = fieldOr(config, 'fDeviceType', { enum: 'deviceType', values: [1, 2, 3, 4, 5, 6] });
  const protocolField = fieldOr(config, 'fProtocol', { enum: 'protocol', values: [1, 2, 3] });
  const { options: categories } = useDictionary(categoryField.dictionary ?? 'Product_Category');
  const types = useEnumOptions(typeField);
  const protocols = useEnumOptions(protocolField);

  const query = () => {
    search.query();
    // The same filters again still mean "fetch now".
    refresh();
  };

  const afterWrite = () => {
    invalidateLookups('products');
    refresh();
  };
  // Status failures read 产品状态修改失败:<reason>; a failed delete shows the server's reason alone (spec 000 §8).
  const toggle = (row: ProductRow) => {
    const next = Number(row.fStatus) === 1 ? 0 : 1;
    confirmCall(translate(next === 1 ? 'product.confirmEnable' : 'product.confirmDisable'), 'product.status', { fId: row.fId, fStatus: next }, {
      done: () => translate(config.notifications?.status ?? 'product.statusSuccess', { _: translate('product.statusSuccess') }),
      failed: ({ error }) => failureText(translate, 'product.statusFailed', error),
      after: afterWrite,
    });
  };
  const remove = (row: ProductRow) =>
    confirmCall(translate('product.confirmDelete'), 'product.delete', { fId: row.fId }, {
      done: () => translate(config.notifications?.delete ?? 'product.deleteSuccess', { _: translate('product.deleteSuccess') }),
      failed: ({ message }) => message || translate('product.deleteFailed'),
      after: () => {
        // The last card of a later page is gone: its page goes with it.
        if (list.rows.length === 1 && page > 1) setPage(page - 1);
        afterWrite();
      },
    });

  const set = (name: keyof Filters) => (value: unknown) => patch({ [name]: value as string | number });

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid="product-list">
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(190px, 1fr))', gap: 2, alignItems: 'start' }}>
          <SearchText label={translate('product.filter.number')} value={draft.number} onChange={set('number')} onEnter={query} testId="product-filter-number" />
          <SearchText label={translate('product.filter.name')} value={draft.name} onChange={set('name')} onEnter={query} testId="product-filter-name" />
          <OptionSelect field={categoryField} value={draft.categoryId} onChange={set('categoryId')} options={categories} label={translate('product.filter.category')} testId="product-filter-category" required={false} error="" />
          <OptionSelect field={typeField} value={draft.deviceType} onChange={set('deviceType')} options={types} label={translate('product.filter.type')} testId="product-filter-type" required={false} error="" />
          <OptionSelect field={protocolField} value={draft.protocol} onChange={set('protocol')} options={protocols} label={translate('product.filter.protocol')} testId="product-filter-protocol" required={false} error="" />
        </Box>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2 }}>
          <SearchButtons onQuery={query} onReset={search.reset} testIds={{ query: 'product-query', reset: 'product-reset' }} />
          <Box sx={{ flex: 1 }} />
          {can.add && <AddButton onClick={() => setEditing(null)} label={translate('product.add')} testId="product-add" />}
        </Box>
      </Paper>

      <CardGrid
        {...list}
        rowKey={(row) => row.fId}
        testId="product-grid"
        renderCard={(row) => (
          <ProductCard
            row={row}
            actions={{
              onView: setViewing,
              onEdit: can.edit ? setEditing : undefined,
              onToggle: can.status ? toggle : undefined,
              onDelete: can.del ? remove : undefined,
            }}
          />
        )}
      />

      <FormDialog config={config} open={editing !== undefined} record={editing} onClose={() => setEditing(undefined)} onSaved={() => invalidateLookups('products')} failureKey="product.saveFailed" />
      <ProductDrawer config={config} row={viewing} onClose={() => setViewing(null)} />
      {dialog}
    </Box>
  );
}

export default ProductList;
