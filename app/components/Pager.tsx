import { TablePagination, type TablePaginationProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/** MUI's table pager with the console's own wording in every language; every list pages through it. */
export function Pager(props: Omit<TablePaginationProps, 'labelDisplayedRows' | 'labelRowsPerPage' | 'getItemAriaLabel'> & { 'data-testid'?: string }) {
  const translate = useTranslate();
  return (
    <TablePagination
      labelDisplayedRows={({ from, to, count }) => translate('common.pagination.displayed', { from, to, count })}
      labelRowsPerPage={translate('common.pagination.rowsPerPage')}
      // The arrows' tooltips and labels too, which MUI otherwise gives in English.
      getItemAriaLabel={(type) => translate(`common.pagination.${type}`)}
      {...(props as TablePaginationProps)}
    />
  );
}
