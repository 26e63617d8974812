import { useMemo, useState } from 'react';
import { Box, Button, LinearProgress, MenuItem, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useGetList, useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError, call } from '../../adapters/http';
import { useCan } from '../auth/useCan';
import type { FieldConfig, FilterConfig, ResourceConfig } from '../resources/types';
import { defaultSort, permissionOf } from './api';
import { useConfirm } from './ConfirmDialog';
import { EmptyState } from './EmptyState';
import { useEnumOptions } from './FieldInput';
import { FieldValue } from './FieldValue';
import { FormDialog, type Row } from './FormDialog';
import { Pager } from './Pager';

/** A filter of the search bar: a select for fields with options, a text box otherwise. */
function FilterInput({ filter, field, value, onChange, onEnter }: { filter: FilterConfig; field?: FieldConfig; value: string; onChange: (v: string) => void; onEnter: () => void }) {
  const translate = useTranslate();
  const options = useEnumOptions(field ?? { values: [] });
  const label = field ? translate(field.label) : filter.key;
  if (field?.enum && filter.op === 'eq') {
    return (
      <TextField select size="small" label={label} value={value} onChange={(e) => onChange(e.target.value)} sx={{ minWidth: 160 }} data-testid={`filter-${filter.key}`}>
        <MenuItem value="">{translate('common.all')}</MenuItem>
        {options.map((o) => (
          <MenuItem key={String(o.value)} value={String(o.value)}>
            {o.label}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  return (
    <TextField
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => e.key === 'Enter' && onEnter()}
      slotProps={{ htmlInput: { 'data-testid': `filter-${filter.key}` } }}
    />
  );
}

/**
 * The list every resource gets unless its resource file names its own: the declared filters, the
 * declared columns, paging with the declared sizes, and add, edit and delete gated by the resource's
 * permission codes.
 */
export function SchemaList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const confirm = useConfirm();
  const canAdd = useCan(permissionOf(config, 'save', `${config.name}:add`, 'create'));
  const canEdit = useCan(permissionOf(config, 'save', `${config.name}:edit`, 'update'));
  const canDelete = useCan(permissionOf(config, 'delete', `${config.name}:del`));
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [applied, setApplied] = useState<Record<string, string>>({});
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(config.list.pageSize);
  const [editing, setEditing] = useState<Row | null | undefined>(undefined);

  const filter = useMemo(() => Object.fromEntries(Object.entries(applied).filter(([, v]) => v !== '')), [applied]);
  const { data, total, isFetching } = useGetList<Row & { id: number }>(
    config.name,
    { pagination: { page, perPage }, sort: defaultSort(config), filter },
    { placeholderData: (previous) => previous },
  );
  const rows = data ?? [];
  const query = () => {
    setApplied(typed);
    setPage(1);
  };
  const remove = (row: Row) =>
    confirm.ask(translate('common.confirmDelete'), async () => {
      try {
        await call(config.endpoints.delete, { fId: row.fId });
        notify(translate(config.notifications.delete ?? 'common.deleted'), { type: 'success' });
        refresh();
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 200) notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      }
    });

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid={`${config.name}-list`}>
      <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        {config.list.filters.map((f) => (
          <FilterInput
            key={f.key}
            filter={f}
            field={config.fields[f.field ?? f.fields?.[0] ?? '']}
            value={typed[f.key] ?? ''}
            onChange={(v) => setTyped({ ...typed, [f.key]: v })}
            onEnter={query}
          />
        ))}
        <Button variant="contained" startIcon={<SearchIcon />} onClick={query} data-testid="list-query">
          {translate('common.query')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<RestartAltIcon />}
          onClick={() => {
            setTyped({});
            setApplied({});
            setPage(1);
          }}
          data-testid="list-reset"
        >
          {translate('common.reset')}
        </Button>
        <Box sx={{ flex: 1 }} />
        {canAdd && config.endpoints.save && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing(null)} data-testid="list-add">
            {translate('common.add')}
          </Button>
        )}
      </Paper>
      <Box sx={{ height: 4 }}>{isFetching && <LinearProgress />}</Box>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              {config.list.columns.map((c) => (
                <TableCell key={c} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {config.fields[c] ? translate(config.fields[c].label) : c}
                </TableCell>
              ))}
              {(canEdit || canDelete) && <TableCell sx={{ fontWeight: 600 }}>{translate('common.actions')}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={String(row.fId)} hover data-testid="list-row">
                {config.list.columns.map((c) => (
                  <TableCell key={c}>{config.fields[c] ? <FieldValue field={config.fields[c]} row={row} /> : String(row[c] ?? '-')}</TableCell>
                ))}
                {(canEdit || canDelete) && (
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {canEdit && config.endpoints.save && (
                      <Button size="small" onClick={() => setEditing(row)} data-testid="list-edit">
                        {translate('common.edit')}
                      </Button>
                    )}
                    {canDelete && config.endpoints.delete && (
                      <Button size="small" color="error" onClick={() => remove(row)} data-testid="list-delete">
                        {translate('common.delete')}
                      </Button>
                    )}
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {rows.length === 0 && !isFetching && <EmptyState />}
      </TableContainer>
      <Pager
        component="div"
        count={total ?? 0}
        page={Math.max(0, page - 1)}
        rowsPerPage={perPage}
        rowsPerPageOptions={config.list.pageSizes}
        onPageChange={(_e, p) => setPage(p + 1)}
        onRowsPerPageChange={(e) => {
          setPerPage(Number(e.target.value));
          setPage(1);
        }}
      />
      {config.endpoints.save && <FormDialog config={config} open={editing !== undefined} record={editing} onClose={() => setEditing(undefined)} />}
      {confirm.dialog}
    </Box>
  );
}

export default SchemaList;
