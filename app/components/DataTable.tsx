/**
 * The console's one table with a pager, for every list a page draws itself (the generic list, the device
 * list, the drawers' and dialogs' sub-lists, the pickers): columns by key with their header and cell, an
 * optional checkbox column, an optional detail row under a row, the empty state, the progress strip and
 * the pager (app/components/Pager.tsx) with the console's wording. Pages keep their own data, calls and
 * test ids; the table only draws them.
 */
import { Fragment, type Key, type ReactNode } from 'react';
import { Box, Checkbox, LinearProgress, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, type CheckboxProps, type SxProps, type TableCellProps, type TableContainerProps, type TableProps, type TableRowProps, type Theme } from '@mui/material';
import { EmptyRow, EmptyState } from './EmptyState';
import { Pager, pagerCounts, type Counted } from './Pager';

/** data-* attributes ride along with the MUI props (test ids, the row's id). */
type WithData<P> = P & { [data: `data-${string}`]: unknown };

export interface DataColumn<R> {
  key: string;
  /** The header, already worded. */
  header: ReactNode;
  cell: (row: R, index: number) => ReactNode;
  align?: TableCellProps['align'];
  /** `checkbox`: a narrow column of a control (an expand arrow). */
  padding?: TableCellProps['padding'];
  /** Both the header and the body cells (a width, a sticky actions column). */
  sx?: SxProps<Theme>;
  headerSx?: SxProps<Theme>;
  cellSx?: SxProps<Theme>;
  /** A body cell's style by its row. */
  cellSxOf?: (row: R) => SxProps<Theme> | undefined;
  /** Other props of a body cell (a test id, a title). */
  cellProps?: (row: R) => WithData<Partial<TableCellProps>>;
}

/** One checkbox: its state, what a change does, and its own props (where its test id and label go). */
export interface DataCheckbox {
  checked: boolean;
  indeterminate?: boolean;
  disabled?: boolean;
  onChange?: (checked: boolean) => void;
  props?: WithData<Partial<CheckboxProps>>;
}

export interface DataSelection<R> {
  /** The header's checkbox (the page's rows). */
  all: DataCheckbox;
  /** A row's checkbox; null: the row cannot be chosen (its cell stays empty). */
  row: (row: R) => DataCheckbox | null;
}

export interface DataPager {
  /** The rows there are: a total, or a huge list's answer (an estimated total and how far it pages). */
  count: number | Counted;
  /** From 0. */
  page: number;
  rowsPerPage: number;
  /** The sizes offered (the current one alone: no choice). */
  sizes?: number[];
  onPage: (page: number) => void;
  onSize?: (size: number) => void;
  testId?: string;
  sx?: SxProps<Theme>;
}

export interface DataTableProps<R> {
  rows: R[];
  columns: DataColumn<R>[];
  rowKey: (row: R) => Key;
  /** A row's props: its test id and id, `selected`, `sx`, `onClick`. */
  rowProps?: (row: R) => WithData<Partial<TableRowProps>>;
  selection?: DataSelection<R>;
  /** A row shown under the row (an expanded detail); null: none. */
  detail?: (row: R) => { open: boolean; content: ReactNode } | null;
  /** The rows are being asked for: no empty state meanwhile. */
  loading?: boolean;
  /** A thin progress bar above the table while `loading`. */
  progressBar?: boolean;
  /** The empty state's words (default 暂无数据); false: none. */
  empty?: string | false;
  /** While loading with no rows, the empty row shows a spinner (a table without a progress bar). */
  emptySpinner?: boolean;
  /** No rows: the empty state alone (加载中... while loading), without the table's head and pager (a tab's list). */
  emptyAlone?: boolean;
  stickyHeader?: boolean;
  /** A frame around the table. */
  bordered?: boolean;
  /** A frame around the table with its progress bar and pager (a list standing alone on its page). */
  framed?: boolean;
  tableProps?: WithData<Partial<TableProps>>;
  containerProps?: WithData<Partial<TableContainerProps>>;
  pager?: DataPager;
}

const FRAME = { border: 1, borderColor: 'divider', borderRadius: 1 } as const;

const merge = (...parts: (SxProps<Theme> | undefined)[]): SxProps<Theme> => parts.filter(Boolean).flatMap((p) => (Array.isArray(p) ? p : [p])) as SxProps<Theme>;

function Check({ box }: { box: DataCheckbox }) {
  return (
    <Checkbox
      size="small"
      checked={box.checked}
      indeterminate={box.indeterminate}
      disabled={box.disabled}
      onChange={box.onChange ? (e) => box.onChange!(e.target.checked) : undefined}
      {...box.props}
    />
  );
}

export function DataTable<R>({ rows, columns, rowKey, rowProps, selection, detail, loading = false, progressBar = false, empty, emptySpinner = false, emptyAlone = false, stickyHeader = false, bordered = false, framed = false, tableProps, containerProps, pager }: DataTableProps<R>) {
  const width = columns.length + (selection ? 1 : 0);
  if (emptyAlone && rows.length === 0) return <EmptyState loading={loading} message={empty || undefined} />;
  const table = (
    <>
      {progressBar && <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>}
      <TableContainer {...containerProps} sx={merge(bordered ? FRAME : undefined, containerProps?.sx)}>
        <Table size="small" stickyHeader={stickyHeader} {...tableProps}>
          <TableHead>
            <TableRow>
              {selection && (
                <TableCell padding="checkbox">
                  <Check box={selection.all} />
                </TableCell>
              )}
              {columns.map((c) => (
                <TableCell key={c.key} align={c.align} padding={c.padding} sx={merge(c.sx, c.headerSx)}>
                  {c.header}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row, index) => {
              const more = detail?.(row) ?? null;
              const box = selection?.row(row);
              return (
                <Fragment key={rowKey(row)}>
                  <TableRow hover {...rowProps?.(row)}>
                    {selection && <TableCell padding="checkbox">{box && <Check box={box} />}</TableCell>}
                    {columns.map((c) => (
                      <TableCell key={c.key} align={c.align} padding={c.padding} {...c.cellProps?.(row)} sx={merge(c.sx, c.cellSx, c.cellSxOf?.(row))}>
                        {c.cell(row, index)}
                      </TableCell>
                    ))}
                  </TableRow>
                  {more && (
                    <TableRow>
                      <TableCell colSpan={width} sx={{ py: 0, borderBottom: more.open ? undefined : 'none' }}>
                        {more.content}
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })}
            {rows.length === 0 && empty !== false && (emptySpinner || !loading) && <EmptyRow columns={width} message={empty || undefined} loading={emptySpinner && loading} />}
          </TableBody>
        </Table>
      </TableContainer>
      {pager && (
        <Pager
          component="div"
          {...(typeof pager.count === 'number' ? { count: pager.count } : pagerCounts(pager.count))}
          page={pager.page}
          rowsPerPage={pager.rowsPerPage}
          rowsPerPageOptions={pager.sizes ?? [pager.rowsPerPage]}
          onPageChange={(_e, p) => pager.onPage(p)}
          {...(pager.onSize ? { onRowsPerPageChange: (e: { target: { value: string } }) => pager.onSize!(Number(e.target.value)) } : {})}
          {...(pager.testId ? { 'data-testid': pager.testId } : {})}
          {...(pager.sx ? { sx: pager.sx } : {})}
        />
      )}
    </>
  );
  return framed ? <Paper variant="outlined">{table}</Paper> : table;
}

/** The row buttons' column: `header` (操作) over the buttons, kept on one line at the right end. */
export const actionsColumn = <R,>(header: ReactNode, cell: (row: R) => ReactNode): DataColumn<R> => ({ key: 'actions', header, align: 'right', cellSx: { whiteSpace: 'nowrap' }, cell });

/**
 * The pager of a list whose pages count from 1 (react-admin's, the card grid's): the table's pager counts
 * from 0. A new page size starts again at the first page.
 */
export function pagerFromOne(
  list: { total: number; page: number; perPage: number; onPageChange: (page: number) => void },
  { sizes, onSize, testId, sx }: { sizes?: number[]; onSize?: (size: number) => void; testId?: string; sx?: SxProps<Theme> } = {},
): DataPager {
  return {
    count: list.total,
    page: Math.max(0, list.page - 1),
    rowsPerPage: list.perPage,
    sizes,
    onPage: (p) => list.onPageChange(p + 1),
    onSize:
      onSize &&
      ((n) => {
        onSize(n);
        list.onPageChange(1);
      }),
    testId,
    sx,
  };
}

export default DataTable;
