/**
 * Holographic search (spec 001 §2.12): one input for a phone or an ID number; a match opens the profile.
 * Visiting `/hologram?userId=…` (or a typed `?phone=…`, `?idcard=…`) opens the profile directly (an address to keep or send);
 * name links in other screens open it over their own page (ProfileOverlay).
 */
import { useMemo, useState } from 'react';
import { Box, Button, Paper, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { useCan } from '../../auth/useCan';
import { EmptyState } from '../../components/EmptyState';
import { useAsk, HOLOGRAM_CODE, INTEL_CALLS } from './api';
import { ProfileModal, type ProfileTarget } from './ProfileModal';
import { checkSearch, SearchField } from './SearchField';

export default function HologramPage() {
  const translate = useTranslate();
  const ask = useAsk();
  const can = useCan(HOLOGRAM_CODE);
  const [params, setParams] = useSearchParams();
  const [value, setValue] = useState(params.get('phone') ?? params.get('idcard') ?? '');
  const [error, setError] = useState<string | null>(null);
  const [none, setNone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The open profile is the URL's, so a link, the back button and a reload agree.
  const target = useMemo<ProfileTarget | null>(() => {
    const userId = Number(params.get('userId')) || null;
    const phone = params.get('phone');
    const idcard = params.get('idcard');
    return userId || phone || idcard ? { userId, phone, idcard } : null;
  }, [params]);

  const search = async () => {
    setNone(null);
    const term = checkSearch(value);
    if ('error' in term) return setError(translate(`intel.search.${term.error}`));
    setError(null);
    setBusy(true);
    const res = await ask(INTEL_CALLS.search, term);
    setBusy(false);
    if (!res.ok) return setNone(res.message);
    // The answer's phone is masked: the address names the person by user id.
    setParams({ userId: String(res.data.userId) });
  };

  if (!can) return <EmptyState />;
  return (
    <Box data-testid="hologram-page" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', pt: 10, gap: 2 }}>
      <Typography variant="h5" sx={{ letterSpacing: 4, fontWeight: 600 }}>
        {translate('menus.hologram', { _: translate('intel.profile.title') })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('intel.search.hint')}
      </Typography>
      <Paper
        component="form"
        variant="outlined"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
        sx={{ p: 2, pb: 0.5, display: 'flex', gap: 1, alignItems: 'flex-start' }}
      >
        <SearchField value={value} onChange={(v) => (setValue(v), setError(null), setNone(null))} error={error} testId="hologram-input" />
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={busy} data-testid="hologram-search" sx={{ height: 40 }}>
          {translate('intel.search.button')}
        </Button>
      </Paper>
      {none ? (
        <Typography data-testid="hologram-none" color="text.secondary">
          {none}
        </Typography>
      ) : (
        // Before a search: an example of what to type.
        <Typography data-testid="hologram-example" variant="body2" color="text.secondary" sx={{ maxWidth: 560, textAlign: 'center' }}>
          {translate('intel.search.example')}
        </Typography>
      )}
      <ProfileModal target={target} onClose={() => setParams({}, { replace: false })} />
    </Box>
  );
}
