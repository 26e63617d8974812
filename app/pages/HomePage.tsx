/** Home: a welcome card with the user's name. The dashboard replaces its body later. */
import { useGetIdentity, useLocaleState, useTranslate } from 'react-admin';
import { Avatar, Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { getStoredUser } from '../../adapters/authProvider';

const ROLE_KEYS: Record<number, string> = { 0: 'pages.home.user', 1: 'pages.home.admin', 2: 'pages.home.agent' };

export function HomePage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { identity } = useGetIdentity();
  const user = getStoredUser();
  const name = identity?.fullName || user?.fChineseName || '';
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'full' }).format(new Date());
  return (
    <Box data-testid="home-page">
      <Card sx={{ overflow: 'hidden' }}>
        <Box sx={{ height: 6, background: 'linear-gradient(90deg, #1677ff, #36cfc9)' }} />
        <CardContent sx={{ p: 3 }}>
          <Stack direction="row" spacing={2.5} sx={{ alignItems: 'center' }}>
            <Avatar src={identity?.avatar} sx={{ width: 56, height: 56, fontSize: 24, bgcolor: 'primary.main' }}>
              {name.slice(0, 1)}
            </Avatar>
            <Box sx={{ minWidth: 0 }}>
              <Typography component="h1" variant="h5" sx={{ fontSize: 20 }} data-testid="home-welcome">
                {translate('pages.home.welcome', { name })}
              </Typography>
              <Typography color="text.secondary" sx={{ mt: 0.5, fontSize: 14 }}>
                {translate('pages.home.today', { date })}
              </Typography>
            </Box>
            <Box sx={{ flex: 1 }} />
            {user?.fAdmin !== undefined && ROLE_KEYS[user.fAdmin] && (
              <Chip
                label={`${translate('pages.home.role')}: ${translate(ROLE_KEYS[user.fAdmin])}`}
                color="primary"
                variant="outlined"
                size="small"
              />
            )}
          </Stack>
          <Typography color="text.secondary" sx={{ mt: 3, fontSize: 14 }}>
            {translate('pages.home.intro')}
          </Typography>
        </CardContent>
      </Card>
    </Box>
  );
}

export default HomePage;
