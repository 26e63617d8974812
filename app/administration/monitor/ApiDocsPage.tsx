/**
 * System API documentation (spec 002 §2.17): the server's own viewer (/api-docs, Swagger UI) framed in
 * the console. It shares the console's origin, so it reads the token and lists the calls it opens.
 */
import { Box, Button, Paper, Typography } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { useTranslate } from 'react-admin';
import { callUrl } from '../../../adapters/dataProvider';

export const API_DOCS_URL = callUrl('platform.apiDocs');

export function ApiDocsPage() {
  const translate = useTranslate();
  return (
    <Box data-testid="api-docs-page" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, height: 'calc(100vh - 150px)', minHeight: 480 }}>
      <Paper variant="outlined" sx={{ px: 2, py: 1, display: 'flex', alignItems: 'center', gap: 2 }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {translate('apiDocs.hint')}
        </Typography>
        <Button size="small" href={API_DOCS_URL} target="_blank" rel="noopener" startIcon={<OpenInNewIcon />}>
          {translate('apiDocs.open')}
        </Button>
      </Paper>
      <Paper variant="outlined" sx={{ flex: 1, overflow: 'hidden' }}>
        <Box component="iframe" src={API_DOCS_URL} title={translate('apiDocs.title')} data-testid="api-docs-frame" sx={{ border: 0, width: '100%', height: '100%', display: 'block' }} />
      </Paper>
    </Box>
  );
}

export default ApiDocsPage;
