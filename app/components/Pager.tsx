import { TablePagination, type TablePaginationProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/**
 * MUI's table pager with the console's own wording in every language; every list pages through it.
 * `estimate`: the server answered an estimated total (a huge log); the label says "about", and `count`
 * is then the number of rows that can be paged.
 */
export function Pager({
  estimate,
  ...props
}: Omit<TablePaginationProps, 'labelDisplayedRows' | 'labelRowsPerPage' | 'getItemAriaLabel'> & { 'data-testid'?: string; estimate?: number }) {
  const translate = useTranslate();
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
    />
  );
}
