import type { ReactNode } from 'react';
import { Box, Drawer, IconButton, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';

export interface DetailDrawerProps<T> {
  /** The record shown; null: the drawer is closed. */
  record: T | null;
  onClose: () => void;
  /** The drawer's width on a wide screen (it fills a narrow one). */
  width: number;
  testId: string;
  /** The title bar's words, on one line. */
  title: (record: T) => ReactNode;
  /** Beside the title (a device's connection and alarm chips). */
  extra?: (record: T) => ReactNode;
  closeTestId?: string;
  /** Below the title bar, filling the rest of the drawer. */
  children: (record: T) => ReactNode;
}

/** A record's detail at the right of its list: the title bar with the close button over the record's content. */
export function DetailDrawer<T>({ record, onClose, width, testId, title, extra, closeTestId = 'drawer-close', children }: DetailDrawerProps<T>) {
  const translate = useTranslate();
  return (
    <Drawer anchor="right" open={record !== null} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', md: width } } } }}>
      {record !== null && (
        <Box data-testid={testId} sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
          <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1, borderBottom: 1, borderColor: 'divider', gap: 1 }}>
            <Typography variant="h6" sx={{ flex: 1 }} noWrap>
              {title(record)}
            </Typography>
            {extra?.(record)}
            <IconButton onClick={onClose} aria-label={translate('common.close')} data-testid={closeTestId}>
              <CloseIcon />
            </IconButton>
          </Box>
          {children(record)}
        </Box>
      )}
    </Drawer>
  );
}
