/**
 * How many alarms are still unsigned, by the spec's summary groups, for users who hold an alarm list: a
 * button in the top bar with the count, and a card of the groups that opens right after login (once
 * per session). The card puts itself away after a while unless the pointer or focus is on it, and when
 * the user goes to another page, since it covers a corner of the page (a list's lower action buttons);
 * the button brings it back. A group opens its list. The count follows
 * new alarms and sign-offs, and is read again whenever the card opens.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Box, Card, CardContent, CardHeader, Chip, IconButton, Slide, Tooltip } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import ReportProblemOutlined from '@mui/icons-material/ReportProblemOutlined';
import { usePermissions, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { getToken } from '../../../adapters/http';
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
/** How long the card stays open by itself, unless the pointer or focus is on it. */
export const SUMMARY_OPEN_MS = 20_000;

interface Group {
  type: string;
  num: number;
}

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
      api.call<Group[]>('alarm.alarmTypeCount', {}, { quiet: true }).then(
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
      <Slide direction="up" in={open} mountOnEnter unmountOnExit>
        <Card
          elevation={8}
          role="region"
          aria-label={title}
          onMouseEnter={() => setHeld(true)}
          onMouseLeave={() => setHeld(false)}
          onFocus={() => setHeld(true)}
          onBlur={() => setHeld(false)}
          onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
          sx={{ position: 'fixed', right: 24, bottom: 24, width: 340, zIndex: (t) => t.zIndex.drawer, borderTop: 3, borderColor: 'warning.main' }}
          data-testid="alarm-summary"
        >
          <CardHeader
            title={title}
            slotProps={{ title: { variant: 'subtitle1', fontWeight: 600 } }}
            action={
              <IconButton size="small" onClick={() => setOpen(false)} aria-label={translate('common.close')} data-testid="alarm-summary-close">
                <CloseIcon fontSize="small" />
              </IconButton>
            }
            sx={{ pb: 0 }}
          />
          <CardContent>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {groups.map((g) => (
                <Chip
                  key={g.type}
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
          </CardContent>
        </Card>
      </Slide>
    </>
  );
}

export default AlarmSummary;
