/**
 * The holographic profile (spec 001 §2.12): basic data, interests, activity trail, rental, unlock records
 * and related people of one person, over a digital-rain background. Opens by user id and/or phone;
 * closes on a backdrop click or Esc with a 500 ms fade-out. Everything it loads stays in this
 * component's state and is gone when it closes. Phones and ID numbers arrive masked: once the person is
 * found, every further lookup and the graph link name them by user id.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Box, Chip, Dialog, Fade, IconButton, LinearProgress, Link, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { relationHref } from '../../../contract/personal';
import { DigitalRain } from './DigitalRain';
import { useAsk, INTEL_CALLS, LOCK_PAGE_SIZE, type AppRow, type Lease, type LocationRow, type LockRow, type Profile, type Related } from './api';

/** The picture shown when a person has no photo or it fails to load. */
export const DEFAULT_PHOTO =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 120"><rect width="96" height="120" fill="#0b2a1c"/><circle cx="48" cy="44" r="22" fill="#19d27a" opacity=".7"/><path d="M10 120c4-28 20-42 38-42s34 14 38 42z" fill="#19d27a" opacity=".7"/></svg>');

const FADE_MS = 500;
const TAG_COLOR = { address: '#4fc3f7', tother: '#ffb74d', totherHouse: '#ba68c8' } as const;

export interface ProfileTarget {
  userId?: number | null;
  phone?: string | null;
  idcard?: string | null;
}

interface Loaded {
  profile: Profile;
  apps: AppRow[];
  trail: LocationRow[];
  leases: Lease[];
  locks: LockRow[];
  related: Related[];
}

/** One year back, as the lock list's startTime. */
function yearAgo(): string {
  const d = new Date(Date.now() - 365 * 86400000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} 00:00:00`;
}

function Panel({ title, testId, children, empty }: { title: string; testId: string; children: ReactNode; empty: boolean }) {
  const translate = useTranslate();
  return (
    <Box data-testid={`profile-panel-${testId}`} sx={{ border: '1px solid rgba(25,210,122,.45)', borderRadius: 1, bgcolor: 'rgba(2,20,12,.72)', p: 1.5, minHeight: 150, display: 'flex', flexDirection: 'column', boxShadow: 'inset 0 0 18px rgba(25,210,122,.15)' }}>
      <Typography variant="subtitle2" sx={{ color: '#5dffa8', mb: 1, letterSpacing: 1 }}>
        {title}
      </Typography>
      <Box sx={{ flex: 1, overflowY: 'auto', maxHeight: 220, pr: 0.5 }}>
        {empty ? (
          <Typography data-testid="profile-empty" variant="body2" sx={{ color: 'rgba(220,255,235,.55)', textAlign: 'center', mt: 4 }}>
            {translate('common.noData')}
          </Typography>
        ) : (
          children
        )}
      </Box>
    </Box>
  );
}

function Line({ left, right }: { left: ReactNode; right?: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, py: 0.4, borderBottom: '1px dashed rgba(25,210,122,.2)', fontSize: 13 }}>
      <Box sx={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}>{left}</Box>
      {right !== undefined && <Box sx={{ flexShrink: 0, color: 'rgba(220,255,235,.7)' }}>{right}</Box>}
    </Box>
  );
}

export function ProfileModal({ target, onClose }: { target: ProfileTarget | null; onClose: () => void }) {
  const translate = useTranslate();
  const ask = useAsk();
  const navigate = useNavigate();
  const [data, setData] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const open = !!target;

  useEffect(() => {
    if (!target) return;
    let live = true;
    setData(null);
    setFailure(null);
    setLoading(true);
    (async () => {
      const who = await ask(INTEL_CALLS.info, { userId: target.userId ?? undefined, phone: target.phone ?? undefined, idcard: target.idcard ?? undefined });
      if (!live) return;
      if (!who.ok) {
        setLoading(false);
        setFailure(who.message);
        return;
      }
      // A body naming a person (user id, phone, ID number) is answered with the person's profile.
      const p = who.data;
      if (!('chineseName' in p)) return setLoading(false);
      const [apps, trail, leases, locks, related] = await Promise.all([
        ask(INTEL_CALLS.apps, { id: p.userId }),
        ask(INTEL_CALLS.locations, { fUserId: p.userId }),
        ask(INTEL_CALLS.leases, { fUserId: p.userId }),
        ask(INTEL_CALLS.locks, { current: 1, size: LOCK_PAGE_SIZE, condition: { fUserId: p.userId, startTime: yearAgo(), fType: 1 } }),
        ask(INTEL_CALLS.related, { userId: p.userId }),
      ]);
      if (!live) return;
      setLoading(false);
      setData({
        profile: p,
        apps: apps.ok ? apps.data : [],
        trail: trail.ok ? trail.data : [],
        // The legacy answer has short-term and ordinary leases apart; the panel shows them together.
        leases: leases.ok ? [...leases.data.shortTenant, ...leases.data.tenant].sort((a, b) => String(b.fStartTime).localeCompare(String(a.fStartTime))) : [],
        locks: locks.ok ? locks.data.records : [],
        related: related.ok ? related.data.list : [],
      });
    })();
    return () => {
      live = false;
    };
  }, [target, translate]);

  const p = data?.profile;
  const date = (v: string | null) => (v ? v.slice(0, 10) : '-');
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="lg"
      slots={{ transition: Fade }}
      transitionDuration={{ enter: 300, exit: FADE_MS }}
      slotProps={{ paper: { 'data-testid': 'profile-modal', sx: { bgcolor: '#020d08', color: '#dcffeb', position: 'relative', overflow: 'hidden', minHeight: 560 } } as object }}
    >
      <DigitalRain />
      <Box sx={{ position: 'relative', p: 2.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 2 }}>
          <Typography variant="h6" sx={{ flex: 1, color: '#5dffa8', letterSpacing: 2, textShadow: '0 0 8px rgba(25,210,122,.8)' }}>
            {translate('intel.profile.title')}
          </Typography>
          {p && (
            <Link component="button" underline="hover" sx={{ color: '#4fc3f7', mr: 2 }} onClick={() => (onClose(), navigate(relationHref(p.userId)))} data-testid="profile-graph">
              {translate('intel.profile.viewGraph')}
            </Link>
          )}
          <IconButton onClick={onClose} aria-label={translate('intel.profile.close')} sx={{ color: '#5dffa8' }} data-testid="profile-close">
            <CloseIcon />
          </IconButton>
        </Box>
        {loading && <LinearProgress color="success" sx={{ mb: 2 }} />}
        {failure && (
          <Typography data-testid="profile-none" sx={{ textAlign: 'center', mt: 10, fontSize: 18, color: '#dcffeb' }}>
            {failure}
          </Typography>
        )}
        {data && p && (
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, gap: 1.5 }}>
            <Panel title={translate('intel.profile.basic')} testId="basic" empty={false}>
              <Box sx={{ display: 'flex', gap: 1.5 }}>
                <Box
                  component="img"
                  src={p.pic || DEFAULT_PHOTO}
                  alt={translate('intel.profile.photo')}
                  data-testid="profile-photo"
                  onError={(e) => {
                    const img = e.currentTarget as HTMLImageElement;
                    if (img.src !== DEFAULT_PHOTO) img.src = DEFAULT_PHOTO;
                  }}
                  sx={{ width: 80, height: 100, objectFit: 'cover', border: '1px solid rgba(25,210,122,.5)', flexShrink: 0 }}
                />
                <Box sx={{ minWidth: 0, flex: 1, fontSize: 13, '& b': { color: 'rgba(220,255,235,.6)', fontWeight: 400, mr: 0.5 } }}>
                  <div data-testid="profile-name"><b>{translate('intel.profile.name')}</b>{p.chineseName}</div>
                  <div data-testid="profile-idcard"><b>{translate('intel.profile.idcard')}</b>{p.idcard || '-'}</div>
                  <div data-testid="profile-phone"><b>{translate('intel.profile.phone')}</b>{p.phone || '-'}</div>
                  <div><b>{translate('intel.profile.workUnit')}</b>{p.workUnit || '-'}</div>
                  <div><b>{translate('intel.profile.workAddress')}</b>{p.workAddress || '-'}</div>
                  <div><b>{translate('intel.profile.lastLogin')}</b>{p.lastloginDate || '-'}</div>
                </Box>
              </Box>
            </Panel>
            <Panel title={translate('intel.profile.interests')} testId="interests" empty={!data.apps.length}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
                {data.apps.map((a) => (
                  <Chip key={a.fId} size="small" label={a.fAppName || a.fPackage} sx={{ color: '#dcffeb', borderColor: 'rgba(25,210,122,.6)' }} variant="outlined" />
                ))}
              </Box>
            </Panel>
            <Panel title={translate('intel.profile.trail')} testId="trail" empty={!data.trail.length}>
              {data.trail.map((t) => (
                <Line key={t.fId} left={t.fAddress || translate('intel.profile.noAddress')} right={t.fCtime} />
              ))}
            </Panel>
            <Panel title={translate('intel.profile.rental')} testId="rental" empty={!data.leases.length}>
              {data.leases.map((l) => (
                <Line
                  key={l.fId}
                  left={`${l.tRentalHouse?.fStreetName ?? ''}${l.tRentalHouse?.fHouseName ?? ''}`}
                  right={
                    <>
                      {date(l.fStartTime)} ~ {date(l.fEndTime)}{' '}
                      <Chip size="small" label={translate(`intel.leaseStatus.${l.fStatus}`)} sx={{ height: 18, fontSize: 11, ml: 0.5, color: l.fStatus === 2 ? '#020d08' : '#dcffeb', bgcolor: l.fStatus === 2 ? '#19d27a' : 'rgba(255,255,255,.12)' }} />
                    </>
                  }
                />
              ))}
            </Panel>
            <Panel title={translate('intel.profile.locks')} testId="locks" empty={!data.locks.length}>
              {data.locks.map((l) => (
                <Line key={l.fId} left={`${l.fLockTime}  ${translate(`intel.lockType.${l.fLockType}`, { _: String(l.fLockType) })}`} right={l.tRentalHouse?.fHouseName ?? '-'} />
              ))}
            </Panel>
            <Panel title={translate('intel.profile.related')} testId="related" empty={!data.related.length}>
              {data.related.map((r, i) => (
                <Line
                  key={`${r.node}-${r.tag}-${i}`}
                  left={`${r.name} ${r.number}`}
                  right={<Chip size="small" label={translate(`intel.tag.${r.tag}`)} sx={{ height: 18, fontSize: 11, bgcolor: TAG_COLOR[r.tag], color: '#020d08' }} />}
                />
              ))}
            </Panel>
          </Box>
        )}
      </Box>
    </Dialog>
  );
}
