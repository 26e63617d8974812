import { Component, Fragment, Suspense, useState, type ReactNode } from 'react';
import { lazyChunk } from '../shell/chunks';
import { Box, Checkbox, Chip, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel, LinearProgress, MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { endpoints } from '../../adapters/generated/endpoints';
import type { FieldConfig } from '../resources/types';
import type { FieldInputProps } from './fieldInputProps';
import { DateTimeInput as SharedDateTimeInput } from './DateTimeInput';
import { ImageUpload } from './ImageUpload';
import { JurisdictionPicker, areaPath, idPath } from './JurisdictionPicker';
import { useAgents, useAllProducts, useDictionary, useEntityOptions, type Option } from './lookups';
import { optionItems } from './optionItems';

export type { FieldInputProps };

/** One form control chosen from the field's declaration: enum, dictionary, reference, multi choice or text. */
export function FieldInput(props: FieldInputProps) {
  const { field } = props;
  // Pictures are stored by the name the upload answers, never typed in.
  if (field.source === 'fImageName' || field.widget === 'image') return <ImageUpload {...props} />;
  if (field.widget === 'richText') return <RichTextInput {...props} />;
  if (field.widget === 'areas' || field.widget === 'streets') return <JurisdictionListInput {...props} />;
  if (field.multi) return <MultiInput {...props} />;
  if (field.enum || field.values) return <EnumInput {...props} />;
  if (field.dictionary) return <DictionaryInput {...props} />;
  if (field.ref === 'product') return <ProductInput {...props} />;
  if (field.ref === 'user') return <AgentInput {...props} />;
  if (field.ref === 'building') return <BuildingInput {...props} />;
  if (field.type === 'date-time' || field.type === 'date') return <DateTimeInput {...props} />;
  if (field.ref && field.type === 'string' && hasRows(field.ref)) return <RefMultiInput {...props} />;
  if (field.ref && hasAll(field.ref)) return <RefInput {...props} />;
  return <TextInput {...props} />;
}

function TextInput({ field, value, onChange, disabled, error }: FieldInputProps) {
  const translate = useTranslate();
  const long = (field.maxLength ?? 0) >= 500;
  const numeric = field.type === 'integer' || field.type === 'number';
  return (
    <TextField
      label={translate(field.label)}
      value={value ?? ''}
      // A plate or an ID number is stored in capitals; typing shows what will be stored.
      onChange={(e) => onChange(field.transform === 'upper' ? e.target.value.toUpperCase() : e.target.value)}
      disabled={disabled}
      required={field.required}
      error={Boolean(error)}
      helperText={error || ' '}
      fullWidth
      size="small"
      multiline={long}
      minRows={long ? 3 : undefined}
      placeholder={field.pattern && field.messages?.pattern ? undefined : translate('common.pleaseInput')}
      data-testid={'form-field-' + field.source}
      slotProps={{
        htmlInput: {
          maxLength: field.maxLength,
          inputMode: numeric ? 'numeric' : undefined,
          'data-testid': 'form-input-' + field.source,
        },
      }}
    />
  );
}

/** A date or date-time field of a form: the shared picker, with the server's 'YYYY-MM-DD[ HH:mm:ss]'. */
function DateTimeInput({ field, value, onChange, disabled, error }: FieldInputProps) {
  const translate = useTranslate();
  return (
    <SharedDateTimeInput
      mode={field.type === 'date' ? 'date' : 'datetime'}
      seconds
      fullWidth
      label={translate(field.label)}
      value={typeof value === 'string' ? value : ''}
      onChange={onChange}
      disabled={disabled}
      required={field.required}
      error={error || undefined}
      messageLine
      testId={'form-field-' + field.source}
    />
  );
}

/** A select over options; a stored value whose option has not loaded yet shows empty rather than warning. */
export function OptionSelect({
  field,
  value,
  onChange,
  disabled,
  error,
  options,
  label,
  testId,
  allowEmpty,
  required,
}: FieldInputProps & { options: Option[]; label?: string; testId?: string; allowEmpty?: boolean; required?: boolean }) {
  const translate = useTranslate();
  const known = options.some((o) => String(o.value) === String(value));
  return (
    <TextField
      select
      label={label ?? translate(field.label)}
      value={known ? String(value) : ''}
      onChange={(e) => {
        const picked = options.find((o) => String(o.value) === e.target.value);
        onChange(picked ? picked.value : '');
      }}
      disabled={disabled}
      required={required ?? field.required}
      error={Boolean(error)}
      helperText={error === '' ? undefined : (error ?? ' ')}
      fullWidth
      size="small"
      data-testid={testId ?? 'form-field-' + field.source}
    >
      {allowEmpty !== false && (
        <MenuItem value="">
          <em>{translate('common.pleaseSelect')}</em>
        </MenuItem>
      )}
      {optionItems(options)}
    </TextField>
  );
}

/** Options of an enum of schemas/enums.json, labelled at enums.<name>.<value>. */
export function useEnumOptions(field: Pick<FieldConfig, 'enum' | 'values'>): Option[] {
  const translate = useTranslate();
  return (field.values ?? []).map((v) => ({ value: v, label: field.enum ? translate(`enums.${field.enum}.${v}`, { _: String(v) }) : String(v) }));
}

function EnumInput(props: FieldInputProps) {
  return <OptionSelect {...props} options={useEnumOptions(props.field)} />;
}

function DictionaryInput(props: FieldInputProps) {
  const { options } = useDictionary(props.field.dictionary, props.field.type === 'string');
  return <OptionSelect {...props} options={options} />;
}

function ProductInput(props: FieldInputProps) {
  const { options } = useAllProducts();
  return <OptionSelect {...props} options={options} />;
}

const paths = (entity: string) => (endpoints as Record<string, Record<string, string> | undefined>)[entity];
const hasAll = (entity: string) => Boolean(paths(entity)?.all);
const hasRows = (entity: string) => Boolean(paths(entity)?.all ?? paths(entity)?.list);

/** The items of a comma list a text field holds (references, choices, a jurisdiction), blanks dropped. */
const commaItems = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A text field referring to an entity holds a comma list of its rows' ids (a product's functions). */
function RefMultiInput({ field, value, onChange, disabled, error }: FieldInputProps) {
  const translate = useTranslate();
  const { options } = useEntityOptions(field.ref, field.refWhere);
  const chosen = commaItems(value);
  return (
    <TextField
      select
      label={translate(field.label)}
      value={chosen}
      onChange={(e) => {
        const picked = e.target.value as unknown as string[];
        onChange((Array.isArray(picked) ? picked : String(picked).split(',')).filter(Boolean).join(','));
      }}
      disabled={disabled}
      required={field.required}
      error={Boolean(error)}
      helperText={error ?? ' '}
      fullWidth
      size="small"
      data-testid={'form-field-' + field.source}
      slotProps={{
        select: {
          multiple: true,
          renderValue: (selected) =>
            (selected as string[]).map((id) => options.find((o) => String(o.value) === id)?.label ?? id).join(translate('common.listSeparator')),
        },
      }}
    >
      {optionItems(options, { chosen, pad: 0.5 })}
    </TextField>
  );
}

/** A row of the referred entity, from its `all` endpoint. */
function RefInput(props: FieldInputProps) {
  const { options } = useEntityOptions(props.field.ref, props.field.refWhere);
  return <OptionSelect {...props} options={options} />;
}

function AgentInput(props: FieldInputProps) {
  const { options } = useAgents(true);
  return <OptionSelect {...props} options={options} />;
}

/** A building chosen down the address path; the record's district, street and community show where it is. */
function BuildingInput({ field, value, onChange, disabled, error, record }: FieldInputProps) {
  const translate = useTranslate();
  const r = record ?? {};
  const [picked, setPicked] = useState<(number | string)[]>([]);
  const stored = value ? [...areaPath(r.fAreaId as number), ...idPath(r.fStreetId as number, r.fCommunityId as number, value as number)] : [];
  const ids = !value ? [] : String(picked[picked.length - 1]) === String(value) ? picked : stored.length === 6 ? stored : [];
  return (
    <JurisdictionPicker
      kind="building"
      label={translate(field.label)}
      value={ids}
      onChange={(v) => {
        setPicked(v?.ids ?? []);
        onChange(v?.last.level === 'building' ? v.last.id : '');
      }}
      disabled={disabled}
      required={field.required}
      error={error}
      fullWidth
      testId={'form-field-' + field.source}
    />
  );
}

/**
 * A comma list of regions (widget areas: any level) or streets (widget streets), each added with the
 * jurisdiction picker and shown as a chip to remove; the record's areaNames / streetNames name the stored
 * ones (a staff member's jurisdiction, server/auth/jurisdiction.ts).
 */
function JurisdictionListInput({ field, value, onChange, disabled, error, record }: FieldInputProps) {
  const translate = useTranslate();
  const streets = field.widget === 'streets';
  const stored = (record?.[streets ? 'streetNames' : 'areaNames'] ?? []) as { id: number; name: string }[];
  const [added, setAdded] = useState<Record<string, string>>({});
  const chosen = commaItems(value);
  const labelOf = (id: string) => added[id] ?? stored.find((s) => String(s.id) === id)?.name ?? id;
  return (
    <FormControl fullWidth error={Boolean(error)} data-testid={'form-field-' + field.source}>
      <JurisdictionPicker
        kind={streets ? 'street' : 'area'}
        label={translate(field.label)}
        value={[]}
        onChange={(v) => {
          // A street list takes streets only; a region list any level of the region tree.
          if (!v || (streets && v.last.level !== 'street')) return;
          const id = String(v.last.id);
          setAdded((a) => ({ ...a, [id]: v.last.label }));
          if (!chosen.includes(id)) onChange([...chosen, id].join(','));
        }}
        disabled={disabled}
        fullWidth
        testId={'form-field-' + field.source + '-picker'}
      />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mt: chosen.length ? 0.5 : 0 }}>
        {chosen.map((id) => (
          <Chip key={id} size="small" label={labelOf(id)} onDelete={disabled ? undefined : () => onChange(chosen.filter((c) => c !== id).join(','))} />
        ))}
      </Box>
      <FormHelperText>{error ?? ' '}</FormHelperText>
    </FormControl>
  );
}

/** A comma-separated multi choice shown as checkboxes. */
function MultiInput({ field, value, onChange, disabled, error }: FieldInputProps) {
  const translate = useTranslate();
  const chosen = commaItems(value);
  const toggle = (option: string, on: boolean) => {
    const next = (field.multi ?? []).filter((o) => (o === option ? on : chosen.includes(o)));
    onChange(next.join(','));
  };
  return (
    <FormControl error={Boolean(error)} disabled={disabled} data-testid={'form-field-' + field.source} fullWidth>
      <FormLabel sx={{ fontSize: 12 }} required={field.required}>
        {translate(field.label)}
      </FormLabel>
      <FormGroup row>
        {(field.multi ?? []).map((option) => (
          <FormControlLabel
            key={option}
            label={translate(`common.options.${option}`, { _: option })}
            control={
              <Checkbox
                size="small"
                checked={chosen.includes(option)}
                onChange={(e) => toggle(option, e.target.checked)}
                slotProps={{ input: { 'data-testid': `form-check-${field.source}-${option}` } as object }}
              />
            }
          />
        ))}
      </FormGroup>
      <FormHelperText>{error ?? ' '}</FormHelperText>
    </FormControl>
  );
}

// The editor (TipTap, ProseMirror) is a large download: fetched only when a form with rich text opens.
const RichTextEditor = lazyChunk(() => import('./richtext/RichTextEditor'));

function RichTextInput(props: FieldInputProps) {
  return (
    <EditorBoundary>
      <Suspense fallback={<LinearProgress data-testid="rt-loading" />}>
        <RichTextEditor {...props} />
      </Suspense>
    </EditorBoundary>
  );
}

/**
 * An editor that fails while it starts (its download cut off, its view not yet mounted) is started once
 * more instead of taking the whole page down; a second failure shows in place of the field.
 */
class EditorBoundary extends Component<{ children: ReactNode }, { failed: boolean; attempts: number }> {
  state = { failed: false, attempts: 0 };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: Error) {
    console.error(error);
    if (this.state.attempts < 1) this.setState((s) => ({ failed: false, attempts: s.attempts + 1 }));
  }
  render() {
    if (this.state.failed) return <EditorFailed />;
    return <Fragment key={this.state.attempts}>{this.props.children}</Fragment>;
  }
}

function EditorFailed() {
  const translate = useTranslate();
  return <FormHelperText error>{translate('pages.e500.message')}</FormHelperText>;
}
