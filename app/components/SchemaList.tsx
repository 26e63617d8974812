import { DateTimeInput } from './DateTimeInput';
import { Fragment, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Box, Button, FormControl, FormControlLabel, FormLabel, IconButton, Radio, RadioGroup, MenuItem, Switch, TextField, type SxProps, type Theme } from '@mui/material';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError, envelopeText } from '../../adapters/http';
import { entityCall, useApi } from './calls';
import { useCan } from '../auth/useCan';
import type { FieldConfig, FilterConfig, ResourceConfig } from '../resources/types';
import { permissionOf } from './api';
import { useConfirm } from './ConfirmDialog';
import { useEnumOptions } from './FieldInput';
import { invalidateLookups, useDictionary } from './lookups';
import { FieldValue } from './FieldValue';
import { FormDialog, type FormDialogProps, type Row } from './FormDialog';
import { DataTable, pagerFromOne } from './DataTable';
import { useResourcePage } from './useResourcePage';
import { useToggleSet } from './useToggleSet';
import { optionItems } from './optionItems';
import { useSearch } from './useSearch';
import { SearchBar, SearchText } from './SearchBar';
import { AddButton } from './AddButton';
import { useLinkTargets } from './linkTargets';
import { JurisdictionPicker, type JurisdictionKind, type JurisdictionLevel, type JurisdictionValue } from './JurisdictionPicker';
import { TextAction } from './IconAction';


/** Cells a little narrower than MUI's small ones, so a list of a dozen columns fits beside the menu in any language. */
const LIST_TABLE_SX = { '& .MuiTableCell-root:not(.MuiTableCell-paddingCheckbox)': { px: 1.25 } } as const;
/** The actions stay in view at the right edge while a wide list scrolls sideways. */
const ACTIONS_SX = { position: 'sticky', right: 0, bgcolor: 'background.paper', boxShadow: (t: Theme) => `inset 1px 0 0 ${t.palette.divider}` } as const;

/** A jurisdiction filter fills the condition keys of the levels chosen (its `jurisdiction.keys`). */
function JurisdictionFilter({ filter, typed, onChange }: { filter: FilterConfig; typed: Record<string, unknown>; onChange: (patch: Record<string, string>) => void }) {
  const { kind, keys } = filter.jurisdiction!;
  const [picked, setPicked] = useState<JurisdictionValue | null>(null);
  // A reset empties the keys: the picker follows.
  const cleared = Object.values(keys).every((k) => !typed[k]);
  return (
    <JurisdictionPicker
      kind={kind as JurisdictionKind}
      value={cleared ? [] : picked?.ids}
      testId={`filter-${filter.key}`}
      onChange={(v) => {
        setPicked(v);
        onChange(Object.fromEntries(Object.entries(keys).map(([level, key]) => [key, v && v.levels.includes(level as JurisdictionLevel) ? String(v.ids[v.levels.indexOf(level as JurisdictionLevel)]) : ''])));
      }}
    />
  );
}

type FilterValue = unknown;
const NO_FILTERS: Record<string, FilterValue> = {};

/** The picker's `2026-11-23 09:30` <-> `2026-11-23 09:30:00` (the legacy condition's time format). */
const toLegacyTime = (v: string) => (v ? `${v}:00` : '');
const fromLegacyTime = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 16) : '');
/** A `between` range whose start is after its end matches nothing: it is refused rather than searched. */
const inverted = (value: unknown) => Array.isArray(value) && !!value[0] && !!value[1] && String(value[0]) > String(value[1]);

/**
 * A filter of the search bar: a select for fields with options (several at once for `in`, limited to
 * the list's default values when it has some), two date-times for `between`, a text box otherwise.
 */
function FilterInput({ entity, filter, field, value, onChange, onEnter, allowed }: { entity: string; filter: FilterConfig; field?: FieldConfig; value: FilterValue; onChange: (v: FilterValue) => void; onEnter: () => void; allowed?: unknown[] }) {
  const translate = useTranslate();
  const enumOptions = useEnumOptions(field ?? { values: [] });
  const { options: dictionaryOptions } = useDictionary(filter.op === 'eq' ? field?.dictionary : undefined);
  const all = field?.dictionary ? dictionaryOptions : enumOptions;
  const options = allowed ? all.filter((o) => allowed.some((a) => String(a) === String(o.value))) : all;
  // A filter over several fields (name or remark) may have its own label at resources.<entity>.filters.<key>.
  const label = translate(`resources.${entity}.filters.${filter.key}`, { _: filter.label ? translate(filter.label) : field ? translate(field.label) : filter.key });
  if (filter.op === 'between') {
    const [from, to] = Array.isArray(value) ? value : ['', ''];
    const set = (i: number, v: string) => {
      const next = [from ?? '', to ?? ''];
      next[i] = toLegacyTime(v);
      onChange(next[0] || next[1] ? next : '');
    };
    return (
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }} data-testid={`filter-${filter.key}`}>
        <DateTimeInput label={`${label} ${translate('common.from')}`} value={fromLegacyTime(from)} onChange={(v) => set(0, v)} testId={`filter-${filter.key}-from`} />
        <DateTimeInput label={translate('common.to')} value={fromLegacyTime(to)} onChange={(v) => set(1, v)} testId={`filter-${filter.key}-to`} error={inverted(value) ? translate('common.rangeInverted') : undefined} />
      </Box>
    );
  }
  if (field?.enum && filter.op === 'in') {
    const chosen = Array.isArray(value) ? value.map(String) : [];
    return (
      <TextField
        select
        size="small"
        label={label}
        value={chosen}
        onChange={(e) => onChange((e.target.value as unknown as string[]).map((v) => (field.type === 'integer' ? Number(v) : v)))}
        sx={{ minWidth: 200 }}
        slotProps={{ select: { multiple: true, renderValue: (v) => options.filter((o) => (v as string[]).includes(String(o.value))).map((o) => o.label).join(translate('common.listSeparator')) } }}
        data-testid={`filter-${filter.key}`}
      >
        {optionItems(options, { chosen, pad: 0 })}
      </TextField>
    );
  }
  if (filter.input === 'radio' && filter.op === 'eq') {
    return (
      <FormControl size="small" sx={{ flexDirection: 'row', alignItems: 'center', gap: 1.5 }} data-testid={`filter-${filter.key}`}>
        <FormLabel sx={{ fontSize: 14 }}>{label}</FormLabel>
        <RadioGroup row value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} aria-label={label}>
          {[{ value: '', label: translate('common.all') }, ...options].map((o) => (
            <FormControlLabel key={String(o.value)} value={String(o.value)} control={<Radio size="small" />} label={o.label} sx={{ '& .MuiFormControlLabel-label': { fontSize: 14 } }} />
          ))}
        </RadioGroup>
      </FormControl>
    );
  }
  if ((field?.enum || field?.dictionary) && filter.op === 'eq') {
    return (
      <TextField select size="small" label={label} value={String(value ?? '')} onChange={(e) => onChange(e.target.value)} sx={{ minWidth: 160 }} data-testid={`filter-${filter.key}`}>
        <MenuItem value="">{translate('common.all')}</MenuItem>
        {optionItems(options)}
      </TextField>
    );
  }
  return <SearchText label={label} value={String(value ?? '')} onChange={onChange} onEnter={onEnter} testId={`filter-${filter.key}`} />;
}

/** One row of a tree list with its depth; `children` tells whether it can expand. */
interface TreeLine {
  row: Row & { id: number };
  depth: number;
  children: number;
}

/**
 * The page's rows in tree order: a row under the row whose id its parent field holds, rows whose parent
 * is not on the page as roots (a search still shows its matches), the children of collapsed rows left out.
 */
function treeLines(rows: (Row & { id: number })[], parent: string, expanded: Set<unknown>): TreeLine[] {
  const ids = new Set(rows.map((r) => r.fId));
  const byParent = new Map<unknown, (Row & { id: number })[]>();
  for (const r of rows) {
    const key = ids.has(r[parent]) && r[parent] !== r.fId ? r[parent] : null;
    byParent.set(key, [...(byParent.get(key) ?? []), r]);
  }
  const lines: TreeLine[] = [];
  const seen = new Set<unknown>();
  const walk = (key: unknown, depth: number) => {
    for (const row of byParent.get(key) ?? []) {
      if (seen.has(row.fId)) continue; // a cycle in the data must not hang the page
      seen.add(row.fId);
      const children = byParent.get(row.fId)?.length ?? 0;
      lines.push({ row, depth, children });
      if (children && expanded.has(row.fId)) walk(row.fId, depth + 1);
    }
  };
  walk(null, 0);
  return lines;
}

/** A column's cells: times and a tree's first column stay on one line, option labels wrap only between words (a Chinese label never); names and notes wrap. */
function columnSx(field: FieldConfig | undefined, treeColumn: boolean): SxProps<Theme> | undefined {
  if (treeColumn || field?.type === 'date-time') return { whiteSpace: 'nowrap' };
  return field?.enum ? { wordBreak: 'keep-all' } : undefined;
}

type SwitchConfig = NonNullable<ResourceConfig['list']['switches']>[number];

/**
 * A declared switch column: saves at once (fId and the field) through the declared endpoint, then reloads
 * (spec 001 §4). Disabled for users without that endpoint's permission.
 */
function SwitchCell({ config, declared, row }: { config: ResourceConfig; declared: SwitchConfig; row: Row }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const allowed = useCan(permissionOf(config, declared.endpoint, `${config.name}:edit`, 'update'));
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const on = String(row[declared.field]) === String(declared.on);
  const toggle = async () => {
    setBusy(true);
    try {
      const envelope = await api.call(entityCall(config, declared.endpoint), { fId: row.fId, [declared.field]: on ? declared.off : declared.on });
      notify(translate(config.notifications[declared.endpoint] ?? 'ra.notification.updated', { _: envelopeText(envelope) }), { type: 'success' });
      refresh();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 200) notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const label = translate(`enums.${config.fields[declared.field]?.enum}.${row[declared.field]}`, { _: String(row[declared.field] ?? '') });
  return (
    <Switch
      size="small"
      checked={on}
      disabled={!allowed || busy}
      onChange={() => void toggle()}
      slotProps={{ input: { 'aria-label': label, 'data-testid': `switch-${declared.field}` } as object }}
    />
  );
}

/** A custom filter input a list component offers (resource filters name it by `widget`). */
export type FilterWidget = (props: { values: Record<string, FilterValue>; onChange: (values: Record<string, FilterValue>) => void }) => ReactNode;

const isBlank = (v: FilterValue) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** A link column: a button for holders of the link's code, plain text for others. */
function LinkCell({ link, row, children, open }: { link: { permission: string; idField: string }; row: Row; children: ReactNode; open?: (id: unknown) => void }) {
  const can = useCan(link.permission);
  const id = row[link.idField];
  if (!can || !open || isBlank(id as FilterValue)) return <>{children}</>;
  return (
    <Button size="small" sx={{ p: 0, minWidth: 0, textTransform: 'none' }} onClick={() => open(id)} data-testid="list-link">
      {children}
    </Button>
  );
}

export interface SchemaListProps {
  config: ResourceConfig;
  /** Buttons of a row shown before edit and delete (e.g. a detail drawer). */
  rowActions?: (row: Row) => ReactNode;
  /** Buttons of the search bar shown before add (e.g. an import); a function receives the applied search (an export). */
  toolbar?: ReactNode | ((filter: Record<string, unknown>) => ReactNode);
  /** Page-specific options of the add/edit dialog. */
  form?: Pick<FormDialogProps, 'isVisible' | 'maxWidth' | 'inputs' | 'fixed' | 'validate' | 'extraKeys' | 'extra'>;
  /** Conditions every query carries (the library whose fields a drawer lists). */
  fixedFilter?: Record<string, unknown>;
  /** Cells rendered by the page instead of the generic value, by column. */
  cells?: Record<string, (row: Row) => ReactNode>;
  /**
   * A view button on every row, opening the form read-only. By default it shows when the resource
   * declares `form.view` and the user may not edit (spec 001 §2.9, spec 002 role list).
   */
  view?: boolean;
  /** Hides the generic add/edit/delete buttons (a list that only acts through its own row buttons). */
  readOnly?: boolean;
  /** Rows that may be deleted (the built-in roles may not); all by default. */
  deletable?: (row: Row) => boolean;
  /** Inputs for filters that name a widget; filters of one widget share one input. */
  filterWidgets?: Record<string, FilterWidget>;
  /**
   * What a link column opens (list.links[column].target), given the row and the link's id field value,
   * for targets of this list only; the console's own (the profile) need nothing here.
   */
  linkTargets?: Record<string, (row: Row, id: unknown) => void>;
  /** Rows may be chosen with a checkbox; the toolbar acts on the chosen rows. */
  selection?: { selectable: (row: Row) => boolean; toolbar: (rows: Row[], clear: () => void) => ReactNode };
  /** Any change reloads the list (live events). */
  reloadKey?: number;
  /** Told the condition the list queries with, whenever it changes (an export of what the list shows). */
  onFilterChange?: (filter: Record<string, unknown>) => void;
}

/**
 * The list every resource gets unless its resource file names its own: the declared filters, the
 * declared columns (as a tree when the resource declares `list.tree`), paging with the declared sizes,
 * and add, edit and delete gated by the resource's permission codes. A hand-written list can wrap it and
 * add row buttons, toolbar buttons and form rules.
 */
export function SchemaList({ config, rowActions, toolbar, form, fixedFilter, cells, view, readOnly = false, deletable, filterWidgets, linkTargets, selection, reloadKey, onFilterChange }: SchemaListProps) {
  const translate = useTranslate();
  const sharedTargets = useLinkTargets();
  const notify = useNotify();
  const refresh = useRefresh();
  const confirm = useConfirm();
  const api = useApi();
  const canAdd = useCan(permissionOf(config, 'save', `${config.name}:add`, 'create')) && !readOnly && Boolean(config.endpoints.save);
  const canEdit = useCan(permissionOf(config, 'save', `${config.name}:edit`, 'update')) && !readOnly && Boolean(config.endpoints.save);
  const canDelete = useCan(permissionOf(config, 'delete', `${config.name}:del`)) && !readOnly && Boolean(config.endpoints.delete);
  const canView = Boolean(config.endpoints.save) && (view ?? (Boolean(config.form.view) && !canEdit));
  const hasActions = canEdit || canDelete || canView || Boolean(rowActions);
  const defaults = config.list.condition ?? {};
  const { draft: typed, patch, applied, page, setPage, ...search } = useSearch(NO_FILTERS);
  const [chosen, setChosen] = useState<Map<unknown, Row>>(new Map());
  const [perPage, setPerPage] = useState(config.list.pageSize);
  const [editing, setEditing] = useState<Row | null | undefined>(undefined);
  const [viewing, setViewing] = useState(false);
  /** The form for a new row (null) or a row, to edit or only to view. */
  const openForm = (row: Row | null, view: boolean) => {
    setViewing(view);
    setEditing(row);
  };
  const switches = new Map((config.list.switches ?? []).map((w) => [w.field, w]));
  const [expanded, toggle] = useToggleSet<unknown>();
  const tree = config.list.tree;
  // Failure texts of a resource (spec: "… save failed") when its messages declare them.
  const failureKey = (action: string) => {
    const key = `resources.${config.name}.failures.${action}`;
    return translate(key, { _: '' }) ? key : undefined;
  };

  // Filters with a value are always sent (a hidden filter fixing the list, e.g. rental houses only).
  const fixed = useMemo(() => Object.fromEntries(config.list.filters.filter((f) => f.value !== undefined).map((f) => [f.key, f.value])), [config]);
  // A list fixed to a value (rooms of one house) creates rows with that value.
  // So does a list variant whose condition fixes one value of an eq filter (the type-4 document list).
  const fixedFields = useMemo(() => {
    const byValue = config.list.filters.filter((f) => f.value !== undefined && f.field).map((f) => [f.field!, f.value]);
    const byCondition = config.list.filters
      .filter((f) => f.op === 'eq' && f.field && defaults[f.key] !== undefined && typeof defaults[f.key] !== 'object')
      .map((f) => [f.field!, defaults[f.key]]);
    return Object.fromEntries([...byCondition, ...byValue]);
  }, [config, defaults]);
  // A cleared filter with a default goes back to it: the door-lock list never shows other types.
  const filter = useMemo(() => {
    const out: Record<string, FilterValue> = { ...defaults };
    for (const [k, v] of Object.entries(applied)) if (!isBlank(v)) out[k] = v;
    return { ...out, ...fixed, ...fixedFilter };
  }, [applied, defaults, fixed, fixedFilter]);
  useEffect(() => onFilterChange?.(filter), [filter, onFilterChange]);
  const list = useResourcePage<Row & { id: number }>(config, {
    filter,
    page,
    perPage,
    onPageChange: setPage,
    // A variant served by another list call of the entity (the administration flavour of feedback).
    meta: config.list.endpoint ? { call: entityCall(config, config.list.endpoint) } : undefined,
  });
  const { rows, refetch } = list;
  const lines: TreeLine[] = useMemo(() => (tree ? treeLines(rows, tree.parent, expanded) : rows.map((row) => ({ row, depth: 0, children: 0 }))), [rows, tree, expanded]);
  useEffect(() => {
    if (reloadKey) void refetch();
  }, [reloadKey, refetch]);
  const clearChosen = () => setChosen(new Map());
  const highlight = config.list.highlight;
  const highlighted = (row: Row) => !!highlight && String(row[highlight.field]) === String(highlight.equals);
  const widgetsShown = new Set<string>();
  /** A cell: the page's own, a declared switch, a placeholder for a blank value, else the value; a link when declared. */
  const cell = (c: string, row: Row) => {
    if (cells?.[c]) return cells[c](row);
    const declared = switches.get(c);
    if (declared) return <SwitchCell config={config} declared={declared} row={row} />;
    const value = row[c];
    const placeholder = config.list.placeholders?.[c];
    const content = placeholder && isBlank(value as FilterValue) ? translate(placeholder) : config.fields[c] ? <FieldValue field={config.fields[c]} row={row} /> : String(value ?? '-');
    const link = config.list.links?.[c];
    const own = linkTargets?.[link?.target ?? ''];
    const shared = sharedTargets[link?.target ?? ''];
    const open = own ? (id: unknown) => own(row, id) : shared ? (id: unknown) => shared(id, link?.by) : undefined;
    return link && !isBlank(value as FilterValue) ? (
      <LinkCell link={link} row={row} open={open}>
        {content}
      </LinkCell>
    ) : (
      content
    );
  };
  const selectable = selection ? rows.filter(selection.selectable) : [];
  const query = () => {
    // The inverted range says so under its end; the list keeps the last search meanwhile.
    if (config.list.filters.some((f) => f.op === 'between' && inverted(typed[f.key]))) return;
    search.query();
    clearChosen();
  };
  const remove = (row: Row) =>
    confirm.ask(translate('common.confirmDelete'), async () => {
      try {
        await api.call(entityCall(config, 'delete'), { fId: row.fId });
        notify(translate(config.notifications.delete ?? 'common.deleted'), { type: 'success' });
        invalidateLookups(`ref:${config.name}`);
        refresh();
      } catch (error) {
        if (error instanceof ApiError && error.status !== 200) return;
        // The refusal in the console's language, by its code (adapters/http.ts).
        const text = error instanceof Error ? error.message : String(error);
        const key = failureKey('delete');
        notify(key ? translate(key, { message: text }) : text, { type: 'error' });
      }
    });

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid={`${config.name}-list`}>
      <SearchBar
        onQuery={query}
        onReset={() => {
          search.reset();
          clearChosen();
        }}
        testIds={{ query: 'list-query', reset: 'list-reset' }}
        actions={
          <>
            {selection?.toolbar([...chosen.values()], clearChosen)}
            {typeof toolbar === 'function' ? toolbar(filter) : toolbar}
            {canAdd && <AddButton onClick={() => openForm(null, false)} testId="list-add" />}
          </>
        }
        sx={{ mb: 2 }}
      >
        {config.list.filters.map((f) => {
          if (f.input === 'hidden' || f.value !== undefined) return null;
          if (f.input === 'jurisdiction' && f.jurisdiction)
            return <JurisdictionFilter key={f.key} filter={f} typed={typed} onChange={patch} />;
          if (f.widget) {
            const Widget = filterWidgets?.[f.widget];
            if (!Widget || widgetsShown.has(f.widget)) return null;
            widgetsShown.add(f.widget);
            const keys = config.list.filters.filter((g) => g.widget === f.widget).map((g) => g.key);
            return (
              <Fragment key={f.widget}>
                <Widget values={Object.fromEntries(keys.map((k) => [k, typed[k]]))} onChange={patch} />
              </Fragment>
            );
          }
          const fallback = defaults[f.key];
          return (
            <FilterInput
              key={f.key}
              entity={config.entity ?? config.name}
              filter={f}
              field={config.fields[f.field ?? f.fields?.[0] ?? '']}
              value={typed[f.key] ?? (Array.isArray(fallback) ? fallback : '')}
              allowed={Array.isArray(fallback) ? fallback : undefined}
              onChange={(v) => patch({ [f.key]: v })}
              onEnter={query}
            />
          );
        })}
      </SearchBar>
      <DataTable
        rows={lines}
        rowKey={(line) => String(line.row.fId)}
        loading={list.loading} progressBar bordered stickyHeader
        tableProps={{ sx: LIST_TABLE_SX }}
        rowProps={({ row, depth }) => ({
          'data-testid': 'list-row',
          'data-depth': tree ? depth : undefined,
          'data-highlighted': highlighted(row) ? 1 : 0,
          sx: highlighted(row) ? { '& > td': { bgcolor: (t: Theme) => (t.palette.mode === 'dark' ? 'rgba(255,167,38,0.16)' : '#fff4e5') } } : undefined,
        })}
        selection={
          selection && {
            all: {
              checked: selectable.length > 0 && selectable.every((r) => chosen.has(r.fId)),
              indeterminate: selectable.some((r) => chosen.has(r.fId)) && !selectable.every((r) => chosen.has(r.fId)),
              disabled: !selectable.length,
              onChange: (checked) => {
                const next = new Map(chosen);
                for (const r of selectable) {
                  if (checked) next.set(r.fId, r);
                  else next.delete(r.fId);
                }
                setChosen(next);
              },
              props: { slotProps: { input: { 'aria-label': translate('common.selectAll') } }, 'data-testid': 'list-select-all' },
            },
            row: ({ row }) =>
              selection.selectable(row)
                ? {
                    checked: chosen.has(row.fId),
                    onChange: (checked) => {
                      const next = new Map(chosen);
                      if (checked) next.set(row.fId, row);
                      else next.delete(row.fId);
                      setChosen(next);
                    },
                    props: { 'data-testid': 'list-select' },
                  }
                : null,
          }
        }
        columns={[
          ...config.list.columns.map((c, i) => ({
            key: c,
            header: config.fields[c] ? translate(config.fields[c].label) : c,
            headerSx: { fontWeight: 600, wordBreak: 'keep-all' },
            cellSx: columnSx(config.fields[c], Boolean(tree) && i === 0),
            cell: ({ row, depth, children }: TreeLine) => {
              const value = cell(c, row);
              if (!tree || i > 0) return value;
              return (
                <Box sx={{ display: 'flex', alignItems: 'center', pl: depth * 3 }}>
                  {children ? (
                    <IconButton
                      size="small"
                      onClick={() => toggle(row.fId)}
                      aria-label={translate(expanded.has(row.fId) ? 'common.collapse' : 'common.expand')}
                      aria-expanded={expanded.has(row.fId)}
                      data-testid="tree-toggle"
                    >
                      {expanded.has(row.fId) ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                    </IconButton>
                  ) : (
                    <Box sx={{ width: 34 }} />
                  )}
                  <Fragment>{value}</Fragment>
                </Box>
              );
            },
          })),
          ...(hasActions
            ? [
                {
                  key: 'actions',
                  header: translate('common.actions'),
                  headerSx: { fontWeight: 600, ...ACTIONS_SX },
                  cellSx: { '& .MuiButton-root': { whiteSpace: 'nowrap' }, ...ACTIONS_SX },
                  cell: ({ row }: TreeLine) => (
                    <>
                      {canView && <TextAction kind="view" onClick={() => openForm(row, true)} testId="list-view" />}
                      {rowActions?.(row)}
                      {canEdit && <TextAction kind="edit" onClick={() => openForm(row, false)} testId="list-edit" />}
                      {canDelete && (!deletable || deletable(row)) && <TextAction kind="delete" onClick={() => remove(row)} testId="list-delete" />}
                    </>
                  ),
                },
              ]
            : []),
        ]}
        pager={pagerFromOne(list, { sizes: config.list.pageSizes, onSize: setPerPage, testId: `${config.name}-pagination` })}
      />
      {config.endpoints.save && (
        <FormDialog
          config={config}
          open={editing !== undefined}
          record={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => invalidateLookups(`ref:${config.name}`)}
          failureKey={failureKey('save')}
          readOnly={viewing}
          {...form}
          fixed={{ ...fixedFields, ...form?.fixed }}
        />
      )}
      {confirm.dialog}
    </Box>
  );
}

export default SchemaList;
