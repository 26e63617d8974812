/**
 * Right after login: how many alarms are still unsigned, by the spec's summary groups, for users who
 * hold an alarm list. Dismissed once per session; a group opens its list.
 */
import { useEffect, useState } from 'react';
import { Box, Card, CardContent, CardHeader, Chip, IconButton, Slide } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { usePermissions, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { call, getToken } from '../../adapters/http';

export const SUMMARY_PATH = '/biz/t-alarm/alarmTypeCount';
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
const DISMISSED_KEY = 'alarmSummaryDismissed';

interface Group {
  type: string;
  num: number;
}

export function AlarmSummary() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { permissions } = usePermissions<string[]>();
  const [groups, setGroups] = useState<Group[]>([]);
  const [open, setOpen] = useState(false);
  const codes = Array.isArray(permissions) ? permissions : [];
  const allowed = codes.includes('alarm:list');
  // One summary per session (token): a reload of the page does not bring it back.
  const session = getToken()?.slice(-16) ?? '';

  useEffect(() => {
    if (!allowed || sessionStorage.getItem(DISMISSED_KEY) === session) return;
    let live = true;
    call<Group[]>(SUMMARY_PATH, {}, { quiet: true }).then(
      (a) => {
        if (!live) return;
        const shown = (a.data ?? []).filter((g) => g.num > 0 && GROUP_LISTS[g.type] && codes.includes(GROUP_LISTS[g.type].code));
        setGroups(shown);
        setOpen(shown.length > 0);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [allowed, session]);

  const dismiss = () => {
    sessionStorage.setItem(DISMISSED_KEY, session);
    setOpen(false);
  };
  if (!groups.length) return null;
  return (
    <Slide direction="up" in={open} mountOnEnter unmountOnExit>
      <Card elevation={8} sx={{ position: 'fixed', right: 24, bottom: 24, width: 340, zIndex: (t) => t.zIndex.drawer, borderTop: 3, borderColor: 'warning.main' }} data-testid="alarm-summary">
        <CardHeader
          title={translate('alarms.summary.title', { count: groups.reduce((s, g) => s + g.num, 0) })}
          slotProps={{ title: { variant: 'subtitle1', fontWeight: 600 } }}
          action={
            <IconButton size="small" onClick={dismiss} aria-label={translate('common.close')} data-testid="alarm-summary-close">
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
                  dismiss();
                  navigate(GROUP_LISTS[g.type].path);
                }}
                data-testid={`alarm-summary-${g.type}`}
              />
            ))}
          </Box>
        </CardContent>
      </Card>
    </Slide>
  );
}

export default AlarmSummary;
