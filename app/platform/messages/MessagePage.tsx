/**
 * The message centre (spec 002 §2 item 14, §4): unread, read and trash lists, newest first, and a viewer.
 * Opening an unread message marks it read (the top bar's count drops by one); a read message can go to
 * the trash and come back from it. New messages arrive on the live stream and reload the lists.
 */
import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Chip, CircularProgress, Divider, List, ListItemButton, ListItemText, Paper, Tab, Tabs, Typography } from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Restore from '@mui/icons-material/Restore';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import type { CallName } from '../../../adapters/dataProvider';
import { useApi } from '../../components/calls';
import { EmptyState } from '../../components/EmptyState';
import { useInboxEvents } from '../events';
import { loadLists, setUnread, type MessageItem, type MessageLists } from './inbox';

type ListKey = 'unread' | 'readed' | 'trash';
const TABS: ListKey[] = ['unread', 'readed', 'trash'];
const COUNT: Record<ListKey, 'unreadCount' | 'readedCount' | 'trashCount'> = { unread: 'unreadCount', readed: 'readedCount', trash: 'trashCount' };

/** Moves an item between two lists locally, keeping newest first, as the server just did. */
function moveItem(lists: MessageLists, item: MessageItem, from: ListKey, to: ListKey): MessageLists {
  return {
    ...lists,
    [from]: lists[from].filter((m) => m.msg_id !== item.msg_id),
    [to]: [item, ...lists[to]].sort((a, b) => b.msg_id - a.msg_id),
    [COUNT[from]]: Math.max(0, lists[COUNT[from]] - 1),
    [COUNT[to]]: lists[COUNT[to]] + 1,
  };
}

export function MessagePage() {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const [lists, setLists] = useState<MessageLists | null>(null);
  const [tab, setTab] = useState<ListKey>('unread');
  const [selected, setSelected] = useState<MessageItem | null>(null);
  const [content, setContent] = useState<string | null>(null);
  const [loadingContent, setLoadingContent] = useState(false);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(() => {
    loadLists(api)
      .then(setLists)
      .catch((e) => notify(e instanceof Error ? e.message : String(e), { type: 'error' }));
  }, [notify, api]);
  useEffect(reload, [reload]);
  useInboxEvents(reload);

  const fail = (e: unknown) => {
    // A 401/700 is shown by the shell; a refusal carries the server's message.
    if (!(e instanceof ApiError) || e.status === 200) notify(e instanceof Error ? e.message : String(e), { type: 'error' });
  };

  const open = async (item: MessageItem) => {
    setSelected(item);
    setContent(null);
    setLoadingContent(true);
    try {
      const text = (await api.call('message.content', { msg_id: item.msg_id }, { method: 'GET', quiet: true })).data;
      setContent(text);
      if (tab === 'unread') {
        await api.call('message.markRead', { msg_id: item.msg_id });
        setLists((l) => {
          if (!l) return l;
          const next = moveItem(l, item, 'unread', 'readed');
          setUnread(next.unreadCount);
          return next;
        });
      }
    } catch (e) {
      fail(e);
    } finally {
      setLoadingContent(false);
    }
  };

  const shift = async (item: MessageItem, name: CallName, from: ListKey, to: ListKey, done: string) => {
    setBusy(true);
    try {
      await api.call(name, { msg_id: item.msg_id });
      setLists((l) => (l ? moveItem(l, item, from, to) : l));
      if (selected?.msg_id === item.msg_id) {
        setSelected(null);
        setContent(null);
      }
      notify(translate(done), { type: 'success' });
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const items = lists?.[tab] ?? [];
  const label = (key: ListKey) => {
    const n = lists?.[COUNT[key]] ?? 0;
    return (
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
        {translate(`messageCentre.${key}`)}
        {n > 0 && <Chip size="small" label={n > 999 ? '999+' : n} color={key === 'unread' ? 'error' : 'default'} sx={{ height: 20, fontSize: 12 }} data-testid={`message-count-${key}`} />}
      </Box>
    );
  };
  const action = (item: MessageItem) =>
    tab === 'readed' ? (
      <Button size="small" color="error" startIcon={<DeleteOutline />} disabled={busy} onClick={() => void shift(item, 'message.remove', 'readed', 'trash', 'messageCentre.removed')} data-testid="message-remove">
        {translate('messageCentre.remove')}
      </Button>
    ) : tab === 'trash' ? (
      <Button size="small" startIcon={<Restore />} disabled={busy} onClick={() => void shift(item, 'message.restore', 'trash', 'readed', 'messageCentre.restored')} data-testid="message-restore">
        {translate('messageCentre.restore')}
      </Button>
    ) : null;

  return (
    <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', minHeight: 480 }} data-testid="message-centre">
      <Tabs
        value={tab}
        onChange={(_, v: ListKey) => {
          setTab(v);
          setSelected(null);
          setContent(null);
        }}
        sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        {TABS.map((key) => (
          <Tab key={key} value={key} label={label(key)} data-testid={`message-tab-${key}`} />
        ))}
      </Tabs>
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0, flexDirection: { xs: 'column', md: 'row' } }}>
        <Box sx={{ width: { xs: '100%', md: 380 }, flexShrink: 0, borderRight: { md: 1 }, borderColor: { md: 'divider' }, overflowY: 'auto', maxHeight: 640 }}>
          {!lists ? (
            <Box sx={{ p: 4, display: 'flex', justifyContent: 'center' }}>
              <CircularProgress size={24} />
            </Box>
          ) : items.length === 0 ? (
            <EmptyState message={translate(`messageCentre.empty.${tab}`)} />
          ) : (
            <List disablePadding data-testid="message-list">
              {items.map((item) => (
                <ListItemButton key={item.msg_id} selected={selected?.msg_id === item.msg_id} onClick={() => void open(item)} divider data-testid="message-item">
                  <ListItemText
                    primary={item.title}
                    secondary={item.create_time}
                    slotProps={{ primary: { noWrap: true, sx: { fontWeight: tab === 'unread' ? 600 : 400 } } }}
                  />
                </ListItemButton>
              ))}
            </List>
          )}
          {lists && lists[COUNT[tab]] > items.length && (
            <Typography variant="caption" color="text.secondary" sx={{ display: 'block', p: 1.5 }}>
              {translate('messageCentre.newestOnly', { shown: items.length, total: lists[COUNT[tab]] })}
            </Typography>
          )}
        </Box>
        <Box sx={{ flex: 1, p: 3, minWidth: 0 }} data-testid="message-viewer">
          {!selected ? (
            <EmptyState message={translate('messageCentre.pick')} minHeight={320} />
          ) : (
            <>
              <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 2 }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="h6" data-testid="message-title">
                    {selected.title}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {selected.create_time}
                  </Typography>
                </Box>
                {action(selected)}
              </Box>
              <Divider sx={{ my: 2 }} />
              {loadingContent ? (
                <CircularProgress size={20} />
              ) : (
                <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="message-content">
                  {content ?? ''}
                </Typography>
              )}
            </>
          )}
        </Box>
      </Box>
    </Paper>
  );
}

export default MessagePage;
