import type { ReactNode } from 'react';
import { Box, FormControlLabel, Switch, ThemeProvider, type Theme } from '@mui/material';
import Form from '@rjsf/mui';
import { flatValidator, ignoreReported } from '../../../components/formValidator';
import type { ObjectFieldTemplateProps, RJSFSchema, RJSFValidationError, UiSchema, WidgetProps } from '@rjsf/utils';
import { useTranslate } from 'react-admin';

/** An enable flag (使能): 0/1 as a switch. */
function EnableSwitch({ id, value, onChange, label, disabled, readonly }: WidgetProps) {
  return (
    <FormControlLabel
      sx={{ mt: 1 }}
      control={<Switch id={id} checked={Number(value) === 1} disabled={disabled || readonly} onChange={(_e, checked) => onChange(checked ? 1 : 0)} data-testid={`param-switch-${id.replace(/^root_/, '')}`} />}
      label={label}
    />
  );
}

/** Fields in a grid rather than one long column: the breaker has some sixty parameters. */
function GridTemplate({ properties, uiSchema }: ObjectFieldTemplateProps) {
  const isSwitch = (name: string) => (uiSchema?.[name] as Record<string, unknown> | undefined)?.['ui:widget'] === 'enableSwitch';
  const shown = properties.filter((p) => !p.hidden);
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' }, columnGap: 2, rowGap: 0.5 }}>
      {shown.map((p, i) => (
        // The switches start on a row of their own.
        <Box key={p.name} data-param={p.name} sx={isSwitch(p.name) && i > 0 && !isSwitch(shown[i - 1].name) ? { gridColumnStart: 1 } : undefined}>
          {p.content}
        </Box>
      ))}
    </Box>
  );
}

const dense = (outer: Theme): Theme => ({
  ...outer,
  components: {
    ...outer.components,
    MuiTextField: { defaultProps: { size: 'small', margin: 'dense' } },
    MuiFormControl: { defaultProps: { size: 'small', margin: 'dense' } },
  },
});

export interface ParamFormProps {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  formData: Record<string, unknown>;
  onChange: (data: Record<string, unknown>) => void;
  onSubmit: (data: Record<string, unknown>) => void;
  disabled?: boolean;
  /** The form's buttons; a type="submit" one validates and submits. */
  children: ReactNode;
  testId: string;
}

/** A parameter form rendered by react-jsonschema-form from a schema built at run time, with the spec's messages. */
export function ParamForm({ schema, uiSchema, formData, onChange, onSubmit, disabled, children, testId }: ParamFormProps) {
  const translate = useTranslate();
  const transformErrors = (errors: RJSFValidationError[]) =>
    errors
      .map((e) => {
      const key = (e.property ?? '').replace(/^\./, '');
      const field = (schema.properties?.[key] ?? {}) as RJSFSchema;
      const label = String(field.title ?? key);
      let message = e.message ?? '';
      if (e.name === 'required' || (e.name === 'type' && formData[key] === undefined)) message = translate('deviceTab.params.required', { label });
      else if (e.name === 'minimum' || e.name === 'maximum') message = translate('deviceTab.params.range', { label, min: field.minimum, max: field.maximum });
      else if (e.name === 'type') message = translate('deviceTab.params.integer', { label });
      else if (e.name === 'oneOf' || e.name === 'const' || e.name === 'enum') {
        const values = field.oneOf ? (field.oneOf as RJSFSchema[]).map((o) => o.title ?? o.const).join('/') : (field.enum ?? []).join('/');
        message = translate('deviceTab.params.oneOf', { label, values });
      }
      return { ...e, message, stack: message };
    })
      // A value outside a oneOf yields one 'const' error per choice besides the 'oneOf' one.
      .filter((e) => e.name !== 'const');
  return (
    <ThemeProvider theme={dense}>
      <Box data-testid={testId}>
        <Form
          schema={schema}
          uiSchema={uiSchema}
          formData={formData}
          validator={flatValidator}
          widgets={{ enableSwitch: EnableSwitch }}
          templates={{ ObjectFieldTemplate: GridTemplate }}
          transformErrors={transformErrors}
          showErrorList={false}
          // The messages stand under their fields; without a handler the form also logs every refused
          // send to the browser console as an error.
          onError={ignoreReported}
          noHtml5Validate
          liveValidate="onChange"
          disabled={disabled}
          onChange={(e) => onChange(e.formData as Record<string, unknown>)}
          onSubmit={(e) => onSubmit(e.formData as Record<string, unknown>)}
        >
          {children}
        </Form>
      </Box>
    </ThemeProvider>
  );
}

export default ParamForm;
