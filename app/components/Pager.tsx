import { TablePagination, type TablePaginationProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A list's answer as the pager reads it: a huge list's total may be an estimate, with how many of its rows can be paged. */
export interface Counted {
  total: number;
  estimated?: boolean;
  reachable?: number;
}

/** The pager's `count` (the rows that can be paged) and `estimate` (the estimated total, if it is one) for a list's answer. */
export const pagerCounts = (p: Counted): { count: number; estimate?: number } => (p.estimated ? { count: p.reachable ?? p.total, estimate: p.total } : { count: p.total });

/**
 * MUI's table pager with the console's own wording in every language; every list pages through it.
 * `estimate`: the server answered an estimated total (a huge log); the label says "about", and `count`
 * is then the number of rows that can be paged. A page past the last one (the list shrank under it)
 * shows as the last.
 */
export function Pager({
  estimate,
  ...props
}: Omit<TablePaginationProps, 'labelDisplayedRows' | 'labelRowsPerPage' | 'getItemAriaLabel'> & { 'data-testid'?: string; estimate?: number }) {
  const translate = useTranslate();
  const last = props.count < 0 ? props.page : Math.max(0, Math.ceil(props.count / props.rowsPerPage) - 1);
  return (
    <TablePagination
      labelDisplayedRows={({ from, to, count }) =>
        estimate === undefined
          ? translate('common.pagination.displayed', { from, to, count })
          : translate('common.pagination.estimated', { from, to, count: estimate.toLocaleString(), reachable: count.toLocaleString() })
      }
      labelRowsPerPage={translate('common.pagination.rowsPerPage')}
      // The arrows' tooltips and labels too, which MUI otherwise gives in English.
      getItemAriaLabel={(type) => translate(`common.pagination.${type}`)}
      {...(props as TablePaginationProps)}
      page={Math.min(props.page, last)}
    />
  );
}
