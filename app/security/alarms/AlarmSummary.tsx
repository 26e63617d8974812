/**
 * How many alarms are still unsigned, by the spec's summary groups, for users who hold an alarm list: a
 * button in the top bar with the count and, right after login (once per session), the groups beside it
 * in the top bar's own row, so that it never covers a page's controls. The groups give way to the count
 * after a while unless the pointer or focus is on them, and when the user goes to another page; the
 * button brings them back. A group opens its list. The count follows new alarms and sign-offs, and is
 * read again whenever the groups open.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Box, Chip, IconButton, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import { usePermissions, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { getToken } from '../../../adapters/http';
import type { CallRow } from '../../../adapters/dataProvider';
import { useApi } from '../../components/calls';
import { useAlarmEvents } from '../../platform';

/** The list each summary group opens, with the code that opens it (resources/alarm.resource.json). */
export const GROUP_LISTS: Record<string, { path: string; code: string }> = {
  device: { path: '/alarmDevice', code: 'alarm-device:list' },
  lock: { path: '/alarmLock', code: 'alarm-lock:list' },
  collect: { path: '/alarmGather', code: 'alarm-gather:list' },
  time: { path: '/alarmTime', code: 'alarm-time:list' },
  roomCount: { path: '/alarmRoom', code: 'alarm-room:list' },
  person: { path: '/alarmPerson', code: 'alarm-person:list' },
  card: { path: '/alarmCard', code: 'alarm-card:list' },
};
const SHOWN_KEY = 'alarmSummaryShown';
const SIGNED_EVENT = 'alarms:signed';
/** Tells the summary that alarms were signed off in this window, so that its count is read again. */
export const alarmsSigned = () => window.dispatchEvent(new Event(SIGNED_EVENT));
/** How long the groups stay open by themselves, unless the pointer or focus is on them. */
export const SUMMARY_OPEN_MS = 15_000;

/** A summary group and how many of its alarms are unsigned. */
type Group = CallRow<'alarm.alarmTypeCount'>;

export function AlarmSummary() {
  const translate = useTranslate();
  const api = useApi();
  const navigate = useNavigate();
  const { permissions } = usePermissions<string[]>();
  const [groups, setGroups] = useState<Group[]>([]);
  const [open, setOpen] = useState(false);
  const [held, setHeld] = useState(false);
  const codes = Array.isArray(permissions) ? permissions : [];
  const allowed = codes.includes('alarm:list');
  // Opened by itself once per session (token): a reload of the page does not bring it back.
  const session = getToken()?.slice(-16) ?? '';
  const live = useRef(true);
  useEffect(() => () => void (live.current = false), []);

  const load = useCallback(
    () =>
      api.call('alarm.alarmTypeCount', {}, { quiet: true }).then(
        (a) => {
          const shown = (a.data ?? []).filter((g) => g.num > 0 && GROUP_LISTS[g.type] && codes.includes(GROUP_LISTS[g.type].code));
          if (live.current) setGroups(shown);
          return shown;
        },
        () => [] as Group[],
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [codes.join()],
  );

  useEffect(() => {
    if (!allowed) return;
    void load().then((shown) => {
      if (!live.current || !shown.length || sessionStorage.getItem(SHOWN_KEY) === session) return;
      sessionStorage.setItem(SHOWN_KEY, session);
      setOpen(true);
    });
  }, [allowed, session, load]);

  const reload = useCallback(() => void (allowed && load()), [allowed, load]);
  useAlarmEvents(reload);
  useEffect(() => {
    window.addEventListener(SIGNED_EVENT, reload);
    return () => window.removeEventListener(SIGNED_EVENT, reload);
  }, [reload]);

  useEffect(() => {
    if (!open || held) return;
    const timer = setTimeout(() => setOpen(false), SUMMARY_OPEN_MS);
    return () => clearTimeout(timer);
  }, [open, held]);

  // Opened on one page, it goes away when the user moves on to another.
  const { pathname } = useLocation();
  const openedOn = useRef(pathname);
  useEffect(() => {
    if (open) openedOn.current = pathname;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  useEffect(() => {
    if (pathname !== openedOn.current) setOpen(false);
  }, [pathname]);

  const total = groups.reduce((s, g) => s + g.num, 0);
  if (!total) return null;
  const title = translate('alarms.summary.title', { count: total });
  return (
    <>
      {open && (
        // It takes the top bar's free room only (grown from nothing, so the breadcrumb and the buttons keep
        // theirs), at the right next to its button; groups past its width scroll into view.
        <Box sx={{ flex: '100 1 0', minWidth: 0, display: 'flex', justifyContent: 'flex-end' }}>
          <Box
            role="region"
            aria-label={title}
            onMouseEnter={() => setHeld(true)}
            onMouseLeave={() => setHeld(false)}
            onFocus={() => setHeld(true)}
            onBlur={() => setHeld(false)}
            onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
            sx={{ minWidth: 0, maxWidth: '100%', display: 'flex', alignItems: 'center', pl: 1.5, pr: 0.5, py: 0.25, borderRadius: 4, bgcolor: '#fff7e6', border: 1, borderColor: 'warning.light' }}
            data-testid="alarm-summary"
          >
            <Box sx={{ minWidth: 0, display: 'flex', alignItems: 'center', gap: 1, overflowX: 'auto', scrollbarWidth: 'thin', whiteSpace: 'nowrap' }}>
              <Typography variant="body2" sx={{ fontWeight: 600, color: 'warning.dark' }}>
                {title}
              </Typography>
              {groups.map((g) => (
                <Chip
                  key={g.type}
                  size="small"
                  color="warning"
                  variant="outlined"
                  label={`${translate(`alarms.summary.groups.${g.type}`)} ${g.num}`}
                  onClick={() => {
                    setOpen(false);
                    navigate(GROUP_LISTS[g.type].path);
                  }}
                  data-testid={`alarm-summary-${g.type}`}
                />
              ))}
            </Box>
            <IconButton size="small" onClick={() => setOpen(false)} aria-label={translate('common.close')} data-testid="alarm-summary-close" sx={{ ml: 0.5 }}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
        </Box>
      )}
      <Tooltip title={title}>
        <IconButton
          aria-label={title}
          aria-expanded={open}
          onClick={() => {
            if (!open) void load();
            setOpen(!open);
          }}
          data-testid="alarm-summary-button"
        >
          <Badge color="warning" badgeContent={total} max={999} data-count={total}>
            <ReportProblemOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
    </>
  );
}

export default AlarmSummary;
