import { Box, CircularProgress, TableCell, TableRow, Typography } from '@mui/material';
import InboxOutlined from '@mui/icons-material/InboxOutlined';
import { useTranslate } from 'react-admin';

/**
 * What a list, grid or tab shows when it has nothing: 暂无数据 unless told otherwise, 加载中... while
 * `loading`; `hint`, under it, says what to do next (an example search).
 */
export function EmptyState({ message, hint, minHeight = 160, loading = false }: { message?: string; hint?: string; minHeight?: number; loading?: boolean }) {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1, width: '100%' }}>
      <Box data-testid="empty-state" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', color: 'text.disabled', gap: 1 }}>
        <InboxOutlined sx={{ fontSize: 48 }} />
        <Typography variant="body2">{loading ? translate('common.loading') : (message ?? translate('common.noData'))}</Typography>
      </Box>
      {hint && !loading && (
        <Typography data-testid="empty-hint" variant="body2" sx={{ color: 'text.secondary', maxWidth: 640, textAlign: 'center', whiteSpace: 'normal' }}>
          {hint}
        </Typography>
      )}
    </Box>
  );
}

/**
 * The row a table shows when it has no rows, across its `columns`; `loading` shows a spinner there
 * instead, for a table with no progress bar of its own. Without words of the list's own, it says how to
 * find rows: a wider search, with an example.
 */
export function EmptyRow({ columns, message, loading }: { columns: number; message?: string; loading?: boolean }) {
  const translate = useTranslate();
  return (
    <TableRow>
      <TableCell colSpan={columns} sx={{ borderBottom: 0 }}>
        {loading ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
            <CircularProgress size={20} />
          </Box>
        ) : (
          <EmptyState message={message} hint={message ? undefined : translate('common.emptyHint')} minHeight={120} />
        )}
      </TableCell>
    </TableRow>
  );
}

export default EmptyState;
