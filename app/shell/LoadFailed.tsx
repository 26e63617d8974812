/**
 * What the console shows when a part of its code could not be fetched (app/shell/chunks.ts): in place
 * of the page (Layout's boundary), or of the whole console when the part was outside any page (a dialog
 * of the top bar, the login page's registration).
 */
import { Box, Button, Typography } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import { Error as ConsoleError, useTranslate } from 'react-admin';
import type { ComponentProps } from 'react';
import { isChunkFailure } from './chunks';

/** The notice, and a reload: after an update the old chunks are gone, and only a reload brings the new ones. */
export function LoadFailed() {
  const translate = useTranslate();
  return (
    <Box sx={{ py: 8, textAlign: 'center' }} role="alert" data-testid="page-load-failed">
      <Typography color="text.secondary" gutterBottom>
        {translate('shell.loadFailed')}
      </Typography>
      <Button variant="contained" startIcon={<Refresh />} onClick={() => window.location.reload()} autoFocus>
        {translate('shell.reload')}
      </Button>
    </Box>
  );
}

/** The console-wide error screen (`<Admin error>`): the notice for a chunk, react-admin's own for anything else. */
export function ConsoleFailed(props: ComponentProps<typeof ConsoleError>) {
  return isChunkFailure(props.error) ? <LoadFailed /> : <ConsoleError {...props} />;
}
