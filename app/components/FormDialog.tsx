import { useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { maskList } from '../../contract/personal';
import { Box, Dialog, DialogContent, DialogTitle } from '@mui/material';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError, envelopeText } from '../../adapters/http';
import { entityCall, useApi } from './calls';
import type { FieldConfig, ResourceConfig } from '../resources/types';
import { FieldInput, type FieldInputProps } from './FieldInput';
import { useIsAdmin } from './lookups';
import { refusedField } from '../../contract/reasons';
import { refusalError, toBody, validateForm, type FieldError, type FormValues } from './validate';
import { useOpenedOnce } from './useOpenedOnce';
import { DialogFooter } from './DialogFooter';
import { FormGrid } from './FormGrid';

/** The legacy screens keep a failed validation's spinner for this long so the click visibly registers. */
const VALIDATION_RESET_MS = 300;

export type Row = Record<string, unknown>;

export interface FormDialogProps {
  config: ResourceConfig;
  open: boolean;
  /** The row being edited; null or undefined opens an empty form that creates. */
  record?: Row | null;
  onClose: () => void;
  /** Called with the saved row after the success message, before the list refreshes. */
  onSaved?: (row: unknown) => void;
  /** Page-specific rule for showing a field given the current values (e.g. a field only for some product types). */
  isVisible?: (source: string, values: FormValues) => boolean;
  /** i18n key of the failure message; receives the refusal (in the console's language) as %{message}. Without it the refusal is shown alone. */
  failureKey?: string;
  /** Dialog width. */
  maxWidth?: 'sm' | 'md' | 'lg';
  /** View mode: every field disabled and the confirm button only closes (spec 002 §2 user form). */
  readOnly?: boolean;
  /** Page-specific controls replacing the generic one of a field (a file upload, an area picker). */
  inputs?: Record<string, ComponentType<FieldInputProps>>;
  /** Values every save carries that the form does not show (the library a field belongs to). */
  fixed?: Row;
  /** Rules beyond the schema's, checked with them before the save call: source → failed rule. */
  validate?: (values: FormValues) => Record<string, FieldError>;
  /** Keys of values edited by `extra` rather than by a field: read from the record, sent with the save. */
  extraKeys?: string[];
  /** Page-specific controls below the fields (child rows), editing `extraKeys` in the same form state. */
  extra?: (props: {
    values: FormValues;
    setValue: (source: string, value: unknown) => void;
    disabled: boolean;
    /** View mode, and whether the form edits a stored row (an add otherwise). */
    readOnly: boolean;
    editing: boolean;
    /** Messages of failed `validate` rules by key, for controls of extraKeys. */
    errors: Record<string, string | undefined>;
  }) => ReactNode;
}

function initialValues(fields: FieldConfig[], record: Row | null | undefined, extraKeys: string[] = []): FormValues {
  const values: FormValues = {};
  for (const key of extraKeys) values[key] = record?.[key];
  for (const field of fields) {
    const stored = record?.[field.source];
    if (stored !== undefined && stored !== null) values[field.source] = field.type === 'integer' && !field.enum && !field.dictionary && !field.ref ? String(stored) : stored;
    else if (!record && field.default !== undefined) values[field.source] = field.default;
    else values[field.source] = '';
  }
  return values;
}

/**
 * Add/edit dialog rendered from the resource's form declaration: the form's fields in order, each control
 * chosen from the schema (enum, dictionary, reference, multi choice, text), the schema's rules checked
 * before the save call, and the server's refusal shown without losing what was typed.
 */
export function FormDialog({ config, open, record, onClose, onSaved, isVisible, failureKey, maxWidth = 'md', readOnly = false, inputs, fixed, validate, extraKeys, extra }: FormDialogProps) {
  const opened = useOpenedOnce(open);
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const api = useApi();
  const isAdmin = useIsAdmin();
  const editing = Boolean(record && record.fId !== undefined && record.fId !== null);

  const formFields = useMemo(
    () => config.form.fields.map((source) => config.fields[source]).filter((f): f is FieldConfig => Boolean(f) && !f.readOnly),
    [config],
  );
  const [values, setValues] = useState<FormValues>(() => initialValues(formFields, record, extraKeys));
  const [errors, setErrors] = useState<Record<string, FieldError>>({});
  const [saving, setSaving] = useState(false);
  const resetTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!open) return;
    setValues(initialValues(formFields, record, extraKeys));
    setErrors({});
    setSaving(false);
    // extraKeys is a constant list of the page; its identity must not reset what was typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, record, formFields]);
  useEffect(() => () => clearTimeout(resetTimer.current), []);

  const visible = formFields.filter((f) => (!f.adminOnly || isAdmin) && (!isVisible || isVisible(f.source, values)));

  const setValue = (source: string, value: unknown) => {
    setValues((v) => ({ ...v, [source]: value }));
    setErrors((e) => {
      if (!e[source]) return e;
      const { [source]: _dropped, ...rest } = e;
      return rest;
    });
  };

  const form = useRef<HTMLFormElement>(null);
  /** Brings the first refused field of the form into view once the refusal is shown (a long form scrolls). */
  const reveal = (refused: Record<string, FieldError>) => {
    const first = visible.find((f) => refused[f.source]);
    if (first) requestAnimationFrame(() => form.current?.querySelector(`[data-source="${first.source}"]`)?.scrollIntoView({ block: 'center' }));
  };

  const message = (error: FieldError | undefined) =>
    error ? translate(error.key, { ...error.args, label: error.args?.labelKey ? translate(String(error.args.labelKey)) : '' }) : undefined;

  const submit = async () => {
    if (readOnly) return onClose();
    if (saving) return;
    setSaving(true);
    const found = { ...validate?.(values), ...validateForm(visible, values) };
    if (Object.keys(found).length > 0) {
      setErrors(found);
      reveal(found);
      clearTimeout(resetTimer.current);
      resetTimer.current = setTimeout(() => setSaving(false), VALIDATION_RESET_MS);
      return;
    }
    setErrors({});
    // An update carries the stored row's own writable fields too, so columns outside the form keep their values.
    const body: Row = { ...extra };
    if (editing && record) {
      for (const [key, value] of Object.entries(record)) {
        const declared = config.fields[key];
        if (declared && !declared.readOnly && value !== null && value !== undefined && typeof value !== 'object') body[key] = value;
      }
      body.fId = record.fId;
    }
    Object.assign(body, toBody(visible, values, editing), fixed);
    for (const key of extraKeys ?? []) if (values[key] !== undefined) body[key] = values[key];
    try {
      const envelope = await api.call(entityCall(config, 'save'), body);
      notify(translate(config.notifications?.save ?? 'ra.notification.updated', { _: envelopeText(envelope) }), { type: 'success' });
      setSaving(false);
      onClose();
      onSaved?.(envelope.data);
      refresh();
    } catch (error) {
      setSaving(false);
      // Expired logins, missing permissions and server faults are announced by the shell.
      if (error instanceof ApiError && error.status !== 200) return;
      // A refusal about a field of the form is shown under it too, and both in the console's language.
      const about = error instanceof ApiError ? refusedField(error.body) : null;
      const field = about && visible.find((f) => f.source === about.field);
      const refused = field ? refusalError(field, about.rule) : undefined;
      if (field && refused) {
        setErrors({ [field.source]: refused });
        reveal({ [field.source]: refused });
      }
      // The refusal in the console's language, by its code (adapters/http.ts).
      const text = message(refused) ?? (error instanceof Error ? error.message : String(error));
      notify(failureKey ? translate(failureKey, { message: text }) : text, { type: 'error' });
    }
  };

  const name = translate(config.label);
  const title = readOnly ? 'common.viewTitle' : editing ? 'common.editTitle' : 'common.addTitle';
  if (!opened) return null;
  return (
    <Dialog
      open={open}
      onClose={() => !saving && onClose()}
      fullWidth
      maxWidth={maxWidth}
      data-testid="form-dialog"
      data-resource={config.name}
    >
      <DialogTitle>{translate(title, { name, _: readOnly ? `${translate('common.view')} ${name}` : undefined })}</DialogTitle>
      <DialogContent dividers>
        <FormGrid ref={form} onSubmit={() => void submit()}>
          {visible.map((field) => {
            const Input = inputs?.[field.source] ?? FieldInput;
            return (
              <Box key={field.source} data-source={field.source} sx={{ gridColumn: (field.maxLength ?? 0) >= 500 || field.multi ? '1 / -1' : undefined }}>
                <Input
                  field={field}
                  // Viewing shows personal numbers masked by the lists' rule (x-mask); editing shows them whole.
                  value={readOnly && field.mask ? maskList(field.mask, values[field.source]) : values[field.source]}
                  record={{ ...record, ...values }}
                  onChange={(v) => setValue(field.source, v)}
                  setValue={setValue}
                  disabled={readOnly || saving || (editing && field.readOnlyOnEdit)}
                  error={message(errors[field.source])}
                />
              </Box>
            );
          })}
          {extra && <Box sx={{ gridColumn: '1 / -1' }}>{extra({ values, setValue, disabled: saving || readOnly, readOnly, editing, errors: Object.fromEntries(Object.entries(errors).map(([k, e]) => [k, message(e)])) })}</Box>}
        </FormGrid>
      </DialogContent>
      <DialogFooter
        onCancel={readOnly ? undefined : onClose}
        cancelTestId="form-cancel"
        onSubmit={() => void submit()}
        submitLabel={readOnly ? 'common.confirm' : 'common.save'}
        submitTestId="form-save"
        busy={saving}
      />
    </Dialog>
  );
}

export default FormDialog;
