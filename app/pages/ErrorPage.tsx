/** The fixed error pages 401, 404 and 500, each with a way back home. */
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { Box, Button, Stack, Typography } from '@mui/material';
import HomeIcon from '@mui/icons-material/Home';

export type ErrorCode = 401 | 404 | 500;

const ACCENTS: Record<ErrorCode, string> = { 401: '#faad14', 404: '#1677ff', 500: '#ff4d4f' };

export function ErrorPage({ code, embedded = false }: { code: ErrorCode; embedded?: boolean }) {
  const translate = useTranslate();
  const message = translate(`pages.e${code}.message`);
  const appTitle = translate('app.title');
  useEffect(() => {
    if (!embedded) document.title = `${code} - ${appTitle}`;
  }, [code, appTitle, embedded]);
  return (
    <Box
      data-testid={`error-page-${code}`}
      sx={{
        minHeight: embedded ? 420 : '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: embedded ? 'transparent' : 'background.default',
        p: 3,
      }}
    >
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
        <Typography
          component="div"
          aria-hidden
          sx={{ fontSize: 120, fontWeight: 700, lineHeight: 1, color: ACCENTS[code], letterSpacing: 4 }}
        >
          {code}
        </Typography>
        <Typography component="h1" sx={{ fontSize: 18, color: 'text.primary' }} role="alert">
          {message}
        </Typography>
        <Button component={Link} to="/home" variant="contained" startIcon={<HomeIcon />} data-testid="back-home">
          {translate('pages.backHome')}
        </Button>
      </Stack>
    </Box>
  );
}

export const Error401 = () => <ErrorPage code={401} />;
export const Error404 = () => <ErrorPage code={404} />;
export const Error500 = () => <ErrorPage code={500} />;
/** Unknown addresses inside the console keep the shell around the 404 text. */
export const NotFoundInShell = () => <ErrorPage code={404} embedded />;

export default ErrorPage;
