/**
 * The device filters of the device list and the location page: the product (every product, or one) and
 * a keyword matched against the devices' numbers or names, as the user picks.
 */
import { Box, MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useAllProducts } from '../components/lookups';

/** What the keyword is matched against (the legacy select_type). */
export const BY_NUMBER = 1;
export const BY_NAME = 2;

/** The product filter; a product that no longer exists shows as every product. */
export function ProductFilter({ value, onChange, testId }: { value: string; onChange: (productId: string) => void; testId: string }) {
  const translate = useTranslate();
  const { products } = useAllProducts();
  return (
    <TextField
      select
      size="small"
      label={translate('device.filter.product')}
      value={products.some((p) => String(p.fId) === value) ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 200 }}
      slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      data-testid={testId}
    >
      <MenuItem value="">{translate('device.filter.allProducts')}</MenuItem>
      {products.map((p) => (
        <MenuItem key={p.fId} value={String(p.fId)}>
          {p.fName}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The keyword with, joined to it on its left, what it is matched against; Enter in the keyword queries. */
export function KeywordBy({ by, keyword, onChange, onEnter, testIds }: { by: number; keyword: string; onChange: (change: { selectType?: number; keyword?: string }) => void; onEnter: () => void; testIds: { by: string; keyword: string } }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex' }}>
      <TextField
        select
        size="small"
        label={translate('device.filter.searchBy')}
        value={by}
        onChange={(e) => onChange({ selectType: Number(e.target.value) })}
        sx={{ width: 130, '& .MuiOutlinedInput-root': { borderTopRightRadius: 0, borderBottomRightRadius: 0 } }}
        data-testid={testIds.by}
      >
        <MenuItem value={BY_NUMBER}>{translate('device.searchType.number')}</MenuItem>
        <MenuItem value={BY_NAME}>{translate('device.searchType.name')}</MenuItem>
      </TextField>
      <TextField
        size="small"
        placeholder={translate('device.filter.keyword')}
        value={keyword}
        onChange={(e) => onChange({ keyword: e.target.value })}
        onKeyDown={(e) => e.key === 'Enter' && onEnter()}
        sx={{ width: 220, '& .MuiOutlinedInput-root': { borderTopLeftRadius: 0, borderBottomLeftRadius: 0 } }}
        slotProps={{ htmlInput: { 'data-testid': testIds.keyword } }}
      />
    </Box>
  );
}
