import { Box, Button, Card, CardActions, CardContent, Chip, Link as MuiLink, Typography } from '@mui/material';
import { LinkBase, useTranslate } from 'react-admin';
import { CardPicture } from '../../components/CardPicture';
import { TextAction } from '../../components/IconAction';

export type ProductRow = Record<string, unknown> & { fId: number };

export interface ProductCardActions {
  onView: (row: ProductRow) => void;
  onEdit?: (row: ProductRow) => void;
  onToggle?: (row: ProductRow) => void;
  onDelete?: (row: ProductRow) => void;
}

function Line({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, fontSize: 14, lineHeight: '26px', minWidth: 0 }}>
      <Box component="span" sx={{ color: 'text.secondary', flexShrink: 0 }}>
        {label}:
      </Box>
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {children}
      </Box>
    </Box>
  );
}

/** One product in the grid: picture, identity, device count linking to its devices, publish state, actions. */
export function ProductCard({ row, actions }: { row: ProductRow; actions: ProductCardActions }) {
  const translate = useTranslate();
  const published = Number(row.fStatus) === 1;
  const type = row.fDeviceType;
  return (
    <Card variant="outlined" data-testid="product-card" data-id={row.fId} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardPicture name={row.fImageName} height={140} iconSize={40} testId="product-no-image" />
      <CardContent sx={{ flex: 1, pb: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 0.5 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={String(row.fName ?? '')}>
            {String(row.fName ?? '')}
          </Typography>
          <Chip
            size="small"
            label={translate(`enums.publishStatus.${published ? 1 : 0}`)}
            color={published ? 'success' : 'default'}
            variant={published ? 'filled' : 'outlined'}
            data-testid="product-status"
          />
        </Box>
        <Line label={translate('resources.product.fields.fNumber')}>{String(row.fNumber ?? '-')}</Line>
        <Line label={translate('resources.product.fields.fDeviceType')}>
          {type === undefined || type === null ? '-' : translate(`enums.deviceType.${type}`, { _: String(type) })}
        </Line>
        <Line label={translate('product.deviceCount')}>
          <MuiLink component={LinkBase} to={`/device?product_id=${row.fId}`} underline="hover" data-testid="product-device-count">
            {Number(row.deviceCount ?? 0)}
          </MuiLink>
        </Line>
      </CardContent>
      <CardActions sx={{ borderTop: 1, borderColor: 'divider', justifyContent: 'space-around', px: 0.5, flexWrap: 'wrap', '& .MuiButton-root': { minWidth: 0, px: 1 }, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
        <TextAction kind="view" onClick={() => actions.onView(row)} testId="product-view" />
        {actions.onEdit && <TextAction kind="edit" onClick={() => actions.onEdit?.(row)} testId="product-edit" />}
        {actions.onToggle && (
          <Button size="small" color={published ? 'warning' : 'success'} onClick={() => actions.onToggle?.(row)} data-testid="product-toggle">
            {translate(published ? 'product.disable' : 'product.enable')}
          </Button>
        )}
        {actions.onDelete && <TextAction kind="delete" onClick={() => actions.onDelete?.(row)} testId="product-delete" />}
      </CardActions>
    </Card>
  );
}
