import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { FieldConfig, ResourceConfig } from '../resources/types';
import { maskList } from '../../contract/personal';
import { imageUrl } from './api';
import { plainText } from './richtext/RichTextView';
import { useAgents, useAllProducts, useDictionary, useEntityOptions, useIsAdmin } from './lookups';

type Row = Record<string, unknown>;

const blank = (v: unknown) => v === undefined || v === null || v === '';

function DictionaryValue({ dictionary, value, byValue }: { dictionary: string; value: unknown; byValue: boolean }) {
  const { options } = useDictionary(dictionary, byValue);
  return <>{options.find((o) => String(o.value) === String(value))?.label ?? String(value)}</>;
}

function ProductValue({ value }: { value: unknown }) {
  const { options } = useAllProducts();
  return <>{options.find((o) => String(o.value) === String(value))?.label ?? String(value)}</>;
}

/** A comma list of another entity's ids, by their names (an id no longer there shows as it is). */
function RefListValue({ entity, value }: { entity: string; value: unknown }) {
  const translate = useTranslate();
  const { options } = useEntityOptions(entity);
  const names = String(value)
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean)
    .map((id) => options.find((o) => String(o.value) === id)?.label ?? id);
  return <>{names.join(translate('common.listSeparator'))}</>;
}

/** Only administrators may list agents; others see the stored id. */
function AgentValue({ value }: { value: unknown }) {
  const { options } = useAgents(useIsAdmin());
  return <>{options.find((o) => String(o.value) === String(value))?.label ?? String(value)}</>;
}

/** A stored picture as a small thumbnail. */
function ImageValue({ name }: { name: string }) {
  return <Box component="img" src={imageUrl(name) ?? undefined} alt="" sx={{ height: 40, width: 40, objectFit: 'cover', borderRadius: 0.5, display: 'block' }} />;
}

/** A stored value as people read it: enum labels, dictionary and product names, translated choices; '-' when empty. */
export function FieldValue({ field, row }: { field: FieldConfig; row: Row }) {
  const translate = useTranslate();
  const value = row[field.source];
  if (blank(value)) return <>-</>;
  // Personal data by the one rule of contract/personal.ts (spec 001 §2.12).
  if (field.mask) return <>{maskList(field.mask, value)}</>;
  if (field.widget === 'image') return <ImageValue name={String(value)} />;
  // Rich text in a cell or a detail is its words; the read view shows it formatted.
  if (field.widget === 'richText') return <>{plainText(value) || '-'}</>;
  if (field.enum) return <>{translate(`enums.${field.enum}.${value}`, { _: String(value) })}</>;
  if (field.dictionary) return <DictionaryValue dictionary={field.dictionary} value={value} byValue={field.type === 'string'} />;
  if (field.ref === 'product') {
    const embedded = (row.tProduct as Row | undefined)?.fName;
    return embedded ? <>{String(embedded)}</> : <ProductValue value={value} />;
  }
  if (field.ref === 'user') return row.proxyUserName ? <>{String(row.proxyUserName)}</> : <AgentValue value={value} />;
  if (field.ref && field.type === 'string') return <RefListValue entity={field.ref} value={value} />;
  if (field.multi)
    return (
      <>
        {String(value)
          .split(',')
          .filter(Boolean)
          .map((v) => translate(`common.options.${v}`, { _: v }))
          .join(translate('common.listSeparator'))}
      </>
    );
  return <>{String(value)}</>;
}

/** Label/value pairs of a row in two columns, for detail drawers. */
export function DetailFields({ config, row, sources, extra }: { config: ResourceConfig; row: Row; sources: string[]; extra?: { label: string; value: ReactNode }[] }) {
  const translate = useTranslate();
  const items: { key: string; label: string; value: ReactNode }[] = sources
    .filter((s) => config.fields[s])
    .map((s) => ({ key: s, label: translate(config.fields[s].label), value: <FieldValue field={config.fields[s]} row={row} /> }));
  for (const [i, e] of (extra ?? []).entries()) items.push({ key: 'extra-' + i, label: e.label, value: e.value });
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, border: 1, borderColor: 'divider', borderRadius: 1 }} data-testid="detail-fields">
      {items.map((item) => (
        <Box key={item.key} sx={{ display: 'flex', borderBottom: 1, borderColor: 'divider', minHeight: 44 }}>
          <Typography variant="body2" sx={{ width: 140, flexShrink: 0, bgcolor: 'action.hover', px: 1.5, py: 1.25, color: 'text.secondary' }}>
            {item.label}
          </Typography>
          <Typography component="div" variant="body2" sx={{ px: 1.5, py: 1.25, wordBreak: 'break-all' }} data-testid={'detail-' + item.key}>
            {item.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
