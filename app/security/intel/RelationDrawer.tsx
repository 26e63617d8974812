/**
 * The relation graph's side drawer: personal info, same-house and co-resident people, phone book. Numbers
 * arrive masked; the drawer names a phone node by its handle and a person node by user id.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Box, Button, Chip, Divider, Drawer, IconButton, LinearProgress, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';
import { EmptyState } from '../../components/EmptyState';
import { useAsk, INTEL_CALLS, type GraphNode, type House, type PersonDetail, type Related } from './api';
import { useOpenProfile } from './ProfileOverlay';

interface Detail {
  person: PersonDetail | null;
  related: Related[];
  houses: House[];
}

function Section({ title, testId, children, empty }: { title: string; testId: string; children: ReactNode; empty: boolean }) {
  return (
    <Box data-testid={`drawer-${testId}`} sx={{ mb: 2 }}>
      <Typography variant="subtitle2" sx={{ mb: 0.5, color: 'primary.main' }}>
        {title}
      </Typography>
      {empty ? <EmptyState minHeight={60} /> : children}
    </Box>
  );
}

const Row = ({ left, right }: { left: ReactNode; right?: ReactNode }) => (
  <Box sx={{ display: 'flex', justifyContent: 'space-between', py: 0.4, fontSize: 13, borderBottom: '1px solid', borderColor: 'divider' }}>
    <span>{left}</span>
    <Box component="span" sx={{ color: 'text.secondary' }}>{right}</Box>
  </Box>
);

export function RelationDrawer({ node, onClose }: { node: GraphNode | null; onClose: () => void }) {
  const translate = useTranslate();
  const ask = useAsk();
  const openProfile = useOpenProfile();
  const [detail, setDetail] = useState<Detail | null>(null);
  const [loading, setLoading] = useState(false);
  // What names the node to the server: a phone's handle (its id), a person's user id.
  const subject = !node ? null : node.nodetype === 'person' && node.properties.userId ? { userId: node.properties.userId } : { node: node.id };
  const key = subject && JSON.stringify(subject);

  useEffect(() => {
    if (!key) return;
    const who = JSON.parse(key) as NonNullable<typeof subject>;
    let live = true;
    setDetail(null);
    setLoading(true);
    void Promise.all([ask(INTEL_CALLS.detail, who), ask(INTEL_CALLS.related, who)]).then(([person, related]) => {
      if (!live) return;
      setLoading(false);
      setDetail({ person: person.ok && 'phonebook' in person.data ? person.data : null, related: related.ok ? related.data.list : [], houses: related.ok ? related.data.houses : [] });
    });
    return () => {
      live = false;
    };
  }, [key]);

  const p = detail?.person;
  const byTag = (tag: string) => detail?.related.filter((r) => r.tag === tag) ?? [];
  const sameHouse = byTag('totherHouse');
  const coResidents = byTag('tother');
  return (
    <Drawer anchor="right" open={!!node} onClose={onClose} variant="persistent" slotProps={{ paper: { sx: { width: 340, top: 'auto', bottom: 0, height: '100%', position: 'absolute' }, 'data-testid': 'relation-drawer' } as object }} sx={{ '& .MuiDrawer-paper': { boxShadow: 4 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1 }}>
        <Typography variant="subtitle1" sx={{ flex: 1 }}>
          {translate('intel.relation.drawer.title')}
        </Typography>
        <IconButton size="small" onClick={onClose} data-testid="relation-drawer-close">
          <CloseIcon fontSize="small" />
        </IconButton>
      </Box>
      <Divider />
      {loading && <LinearProgress />}
      {/* Sections appear with their data, so 暂无数据 never shows for what is still loading. */}
      {detail && <Box sx={{ p: 2, overflowY: 'auto' }}>
        <Section title={translate('intel.relation.drawer.personal')} testId="personal" empty={!p && !node}>
          {p ? (
            <>
              <Row left={translate('intel.profile.name')} right={p.chineseName} />
              <Row left={translate('intel.profile.idcard')} right={p.idcard || '-'} />
              <Row left={translate('intel.profile.phone')} right={p.phone || '-'} />
              <Row left={translate('intel.profile.workUnit')} right={p.workUnit || '-'} />
              <Row left={translate('intel.profile.workAddress')} right={p.workAddress || '-'} />
              <Button size="small" sx={{ mt: 1 }} onClick={() => openProfile({ userId: p.userId })} data-testid="drawer-open-profile">
                {translate('intel.relation.drawer.openProfile')}
              </Button>
            </>
          ) : (
            node && <Row left={node.properties.name} right={node.properties.number} />
          )}
        </Section>
        <Section title={translate('intel.relation.drawer.sameHouse')} testId="same-house" empty={!detail?.houses.length && !sameHouse.length}>
          {detail?.houses.map((h) => <Row key={`${h.houseId}-${h.roomNum}`} left={`${h.areaName ?? ''}${h.streetName ?? ''}${h.houseName ?? ''}`} right={h.roomNum ?? ''} />)}
          {sameHouse.map((r, i) => <Row key={i} left={r.name} right={r.number} />)}
        </Section>
        <Section title={translate('intel.relation.drawer.coResidents')} testId="co-residents" empty={!coResidents.length}>
          {coResidents.map((r, i) => <Row key={i} left={r.name} right={r.number} />)}
        </Section>
        <Section title={translate('intel.relation.drawer.phonebook')} testId="phonebook" empty={!p?.phonebook.length}>
          {p?.phonebook.map((b, i) => <Row key={i} left={b.name} right={<>{b.number} <Chip size="small" label={translate('intel.tag.address')} sx={{ height: 16, fontSize: 10 }} /></>} />)}
        </Section>
      </Box>}
    </Drawer>
  );
}
