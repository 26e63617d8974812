import { useEffect, useState } from 'react';
import { Box, Button, Card, CardContent, Divider, IconButton, List, ListItem, ListItemText, Pagination, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { useTranslate } from 'react-admin';
import { CardPicture } from '../../components/CardPicture';
import { OnlineChip } from '../cells';
import { useRequest } from '../../components/calls';
import { CHILD_SIZE, type ChildRow, type GatewayRow } from './api';

export interface GatewayCardProps {
  gateway: GatewayRow;
  canAdd: boolean;
  onAdd: (gateway: GatewayRow) => void;
  onUnbind: (gateway: GatewayRow, child: ChildRow) => void;
  /** Bumped by the page after a change, so the card's own child page reloads. */
  version: number;
}

/** One gateway: picture, number, name, online state and its children, 4 at a time with their own pager. */
export function GatewayCard({ gateway, canAdd, onAdd, onUnbind, version }: GatewayCardProps) {
  const translate = useTranslate();
  const request = useRequest();
  const total = Number(gateway.gatewayDeviceLength ?? 0);
  const [page, setPage] = useState(1);
  const [children, setChildren] = useState<ChildRow[]>(gateway.tGatewayDevices ?? []);
  useEffect(() => {
    setPage(1);
    setChildren(gateway.tGatewayDevices ?? []);
  }, [gateway]);
  useEffect(() => {
    if (page === 1) return;
    void request('gateway.children', { current: page, size: CHILD_SIZE, condition: { gateway_id: gateway.fId } }).then((res) => {
      if (res.ok && res.data) setChildren(res.data.records);
    });
  }, [page, gateway.fId, version]);
  const pages = Math.ceil(total / CHILD_SIZE);
  const product: Partial<NonNullable<GatewayRow['tProduct']>> = gateway.tProduct ?? {};

  return (
    <Card variant="outlined" data-testid="gateway-card" data-id={gateway.fId} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardPicture name={product.fImageName} height={120} iconSize={36} testId="gateway-no-image" />
      <CardContent sx={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 0.5, pb: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={String(gateway.fName ?? '')}>
            {String(gateway.fName ?? '') || '-'}
          </Typography>
          <OnlineChip value={gateway.tOnline} />
        </Box>
        <Typography variant="body2" color="text.secondary" data-testid="gateway-number">
          {translate('gateways.number')}: {String(gateway.fNumber ?? '')}
        </Typography>
        <Divider sx={{ my: 0.5 }} />
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <Typography variant="body2" sx={{ fontWeight: 600, flex: 1 }}>
            {translate('gateways.children')}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {translate('gateways.childCount', { count: total })}
          </Typography>
        </Box>
        {children.length === 0 ? (
          <Typography variant="body2" color="text.disabled" sx={{ py: 1 }}>
            {translate('gateways.noChildren')}
          </Typography>
        ) : (
          <List dense disablePadding data-testid="gateway-children">
            {children.map((c) => (
              <ListItem
                key={c.fId}
                disableGutters
                data-testid="gateway-child"
                secondaryAction={
                  canAdd && (
                    <Tooltip title={translate('gateways.unbind')}>
                      <IconButton edge="end" size="small" color="error" onClick={() => onUnbind(gateway, c)} data-testid="gateway-child-unbind" aria-label={translate('gateways.unbind')}>
                        <LinkOffIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )
                }
              >
                <ListItemText
                  primary={String(c.fName ?? '') || String(c.fNumber ?? '')}
                  secondary={String(c.fNumber ?? '')}
                  slotProps={{ primary: { noWrap: true, variant: 'body2' }, secondary: { noWrap: true, variant: 'caption' } }}
                  sx={{ pr: 4 }}
                />
                <OnlineChip value={c.tOnline} />
              </ListItem>
            ))}
          </List>
        )}
        {total > CHILD_SIZE && (
          <Pagination size="small" count={pages} page={Math.min(page, pages)} onChange={(_e, p) => setPage(p)} sx={{ alignSelf: 'center' }} data-testid="gateway-children-pager" />
        )}
      </CardContent>
      {canAdd && (
        <Box sx={{ px: 2, pb: 1.5 }}>
          <Button fullWidth size="small" variant="outlined" startIcon={<AddIcon />} onClick={() => onAdd(gateway)} data-testid="gateway-add">
            {translate('gateways.add')}
          </Button>
        </Box>
      )}
    </Card>
  );
}
