import { useCallback, useEffect, useMemo, useState } from 'react';
import { Autocomplete, Box, Button, CircularProgress, IconButton, Paper, TextField, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import SaveIcon from '@mui/icons-material/Save';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { useCan } from '../../auth/useCan';
import { permissionOf } from '../../components/api';
import { EmptyState } from '../../components/EmptyState';
import { failureText } from '../../components/failure';
import { useDictionary } from '../../components/lookups';
import { validateField, type FieldError } from '../../components/validate';
import { resourceConfig } from '../../resources/config';

interface PropertyRow {
  /** Local key: rows are edited before they have an id. */
  key: number;
  fName: string;
  fValue: string;
}

/** Looked up when first needed: the generated resources import the product page, which imports this. */
const propertyConfig = () => resourceConfig('productProperty');
/** Suggested names: the platform's Product_Property dictionary (brand, model, rated voltage …); any other name may be typed. */
const NAME_DICTIONARY = 'Product_Property';
let nextKey = 1;

/**
 * A product's properties (spec 000 §3): name and value rows edited together and saved as one list, which
 * replaces what the product had. Only holders of the save call's permission (product:edit) may change them.
 */
export function ProductProperties({ productId }: { productId: number }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const config = useMemo(propertyConfig, []);
  const canEdit = useCan(permissionOf(config, 'saveAll', 'product:edit'));
  const { options: suggestions } = useDictionary(NAME_DICTIONARY);
  const names = useMemo(() => [...new Set(suggestions.map((o) => o.label))], [suggestions]);
  const [rows, setRows] = useState<PropertyRow[]>([]);
  const [errors, setErrors] = useState<Record<string, FieldError>>({});
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const answer = await api.call('productProperty.list', { fProductId: productId, current: 1, size: config.list.pageSize });
      setRows((answer.data?.records ?? []).map((r) => ({ key: nextKey++, fName: r.fName ?? '', fValue: r.fValue ?? '' })));
      setErrors({});
    } catch {
      setRows([]);
    } finally {
      setLoading(false);
    }
  }, [productId, config]);
  useEffect(() => {
    void load();
  }, [load]);

  const change = (key: number, source: 'fName' | 'fValue', value: string) => {
    setRows((all) => all.map((r) => (r.key === key ? { ...r, [source]: value } : r)));
    setErrors(({ [`${key}.${source}`]: _dropped, ...rest }) => rest);
  };

  const save = async () => {
    const found: Record<string, FieldError> = {};
    for (const row of rows) {
      for (const source of ['fName', 'fValue'] as const) {
        const error = validateField(config.fields[source], row[source]);
        if (error) found[`${row.key}.${source}`] = error;
      }
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    const list = rows.map((r) => ({ fProductId: productId, fName: r.fName.trim(), fValue: r.fValue.trim() }));
    try {
      // The legacy call takes the rows; an emptied list names its product instead.
      await api.call('productProperty.saveAll', list.length ? list : { fProductId: productId, list: [] });
      notify(translate(config.notifications?.saveAll ?? 'product.properties.saved'), { type: 'success' });
      await load();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 200) notify(failureText(translate, 'product.properties.failed', error), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const message = (key: number, source: string) => {
    const error = errors[`${key}.${source}`];
    return error ? translate(error.key, { ...error.args, label: translate(config.fields[source].label) }) : undefined;
  };

  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }} data-testid="product-properties">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
          {translate('product.properties.title')}
        </Typography>
        {loading && <CircularProgress size={16} />}
        {canEdit && (
          <>
            <Button size="small" startIcon={<AddIcon />} onClick={() => setRows((all) => [...all, { key: nextKey++, fName: '', fValue: '' }])} disabled={saving} data-testid="property-add">
              {translate('product.properties.add')}
            </Button>
            <Button size="small" variant="contained" startIcon={saving ? <CircularProgress size={14} color="inherit" /> : <SaveIcon />} onClick={() => void save()} disabled={saving || loading} data-testid="property-save">
              {translate('common.save')}
            </Button>
          </>
        )}
      </Box>
      {!loading && rows.length === 0 && <EmptyState message={translate('product.properties.empty')} />}
      {rows.map((row, index) => (
        <Box key={row.key} sx={{ display: 'grid', gridTemplateColumns: canEdit ? '1fr 1fr auto' : '1fr 1fr', gap: 1.5, alignItems: 'start', mb: 1 }} data-testid="property-row">
          <Autocomplete
            freeSolo
            options={names}
            value={row.fName}
            inputValue={row.fName}
            onInputChange={(_e, value) => change(row.key, 'fName', value)}
            disabled={!canEdit || saving}
            renderInput={(params) => (
              <TextField
                {...params}
                size="small"
                required
                label={translate(config.fields.fName.label)}
                error={Boolean(message(row.key, 'fName'))}
                helperText={message(row.key, 'fName') ?? ' '}
                slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': `property-name-${index}` } }}
              />
            )}
          />
          <TextField
            size="small"
            required
            label={translate(config.fields.fValue.label)}
            value={row.fValue}
            onChange={(e) => change(row.key, 'fValue', e.target.value)}
            disabled={!canEdit || saving}
            error={Boolean(message(row.key, 'fValue'))}
            helperText={message(row.key, 'fValue') ?? ' '}
            slotProps={{ htmlInput: { 'data-testid': `property-value-${index}` } }}
          />
          {canEdit && (
            <Tooltip title={translate('common.delete')}>
              <span>
                <IconButton onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))} disabled={saving} aria-label={translate('common.delete')} data-testid={`property-remove-${index}`}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </span>
            </Tooltip>
          )}
        </Box>
      ))}
    </Paper>
  );
}

export default ProductProperties;
