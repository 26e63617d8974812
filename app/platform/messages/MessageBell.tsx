import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import { Badge, IconButton, Tooltip } from '@mui/material';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import { useNotify, useTranslate } from 'react-admin';
import { useInboxEvents, type InboxEvent } from '../events';
import { countArrival, useUnreadCount } from './inbox';
import { useApi } from '../../components/calls';

/** The top bar's way into the message centre, with the unread count; a new message is announced. */
export function MessageBell() {
  const translate = useTranslate();
  const notify = useNotify();
  const unread = useUnreadCount();
  const api = useApi();
  const arrived = useCallback(
    (e: InboxEvent) => {
      countArrival(api);
      notify(translate('messageCentre.arrived', { title: e.title }), { type: 'info' });
    },
    [notify, translate, api],
  );
  useInboxEvents(arrived);
  const label = unread ? translate('messageCentre.bellUnread', { count: unread }) : translate('messageCentre.title');
  return (
    <Tooltip title={label}>
      <IconButton component={Link} to="/message" aria-label={label} data-testid="message-bell">
        <Badge color="error" badgeContent={unread ?? 0} max={99} data-testid="message-unread" data-count={unread ?? ''}>
          <NotificationsNone />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
