import { Checkbox, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel, MenuItem, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { FieldConfig } from '../resources/types';
import { useAgents, useAllProducts, useDictionary, type Option } from './lookups';
import { ImageUpload } from './ImageUpload';

export interface FieldInputProps {
  field: FieldConfig;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled?: boolean;
  /** Already translated message of a failed rule. */
  error?: string;
}

/** One form control chosen from the field's declaration: enum, dictionary, reference, multi choice or text. */
export function FieldInput(props: FieldInputProps) {
  const { field } = props;
  // Pictures are stored by the name the upload answers, never typed in.
  if (field.source === 'fImageName') return <ImageUpload {...props} />;
  if (field.multi) return <MultiInput {...props} />;
  if (field.enum || field.values) return <EnumInput {...props} />;
  if (field.dictionary) return <DictionaryInput {...props} />;
  if (field.ref === 'product') return <ProductInput {...props} />;
  if (field.ref === 'user') return <AgentInput {...props} />;
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
      onChange={(e) => onChange(e.target.value)}
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
      {options.map((o) => (
        <MenuItem key={String(o.value)} value={String(o.value)}>
          {o.label}
        </MenuItem>
      ))}
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
  const { options } = useDictionary(props.field.dictionary);
  return <OptionSelect {...props} options={options} />;
}

function ProductInput(props: FieldInputProps) {
  const { options } = useAllProducts();
  return <OptionSelect {...props} options={options} />;
}

function AgentInput(props: FieldInputProps) {
  const { options } = useAgents(true);
  return <OptionSelect {...props} options={options} />;
}

/** A comma-separated multi choice shown as checkboxes. */
function MultiInput({ field, value, onChange, disabled, error }: FieldInputProps) {
  const translate = useTranslate();
  const chosen = String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
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
