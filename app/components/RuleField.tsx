import type { HTMLAttributes, ReactNode } from 'react';
import { InputAdornment, TextField, type TextFieldProps } from '@mui/material';
import { useTranslate } from 'react-admin';

export interface RuleFieldProps extends Omit<TextFieldProps, 'label' | 'error' | 'helperText' | 'onChange' | 'slotProps'> {
  /** i18n key of the label. */
  label: string;
  /** i18n key of the rule the value failed (app/shell/rules.ts), shown under the box. */
  error?: string;
  onChange: (value: string) => void;
  testId: string;
  /** Attributes of the <input> itself (a length limit, the keyboard a phone shows). */
  htmlInput?: HTMLAttributes<HTMLInputElement> & { maxLength?: number };
  /** An icon at the start of the box. */
  icon?: ReactNode;
}

/**
 * A text box of the sign-in and account forms, checked by the rules of app/shell/rules.ts. The empty
 * helper line keeps its place, so a message appearing under one box does not move the ones below.
 */
export function RuleField({ label, error, onChange, testId, htmlInput, icon, ...props }: RuleFieldProps) {
  const translate = useTranslate();
  return (
    <TextField
      {...props}
      label={translate(label)}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error ? translate(error) : ' '}
      slotProps={{
        htmlInput: { ...htmlInput, 'data-testid': testId },
        input: icon ? { startAdornment: <InputAdornment position="start">{icon}</InputAdornment> } : undefined,
      }}
    />
  );
}

export default RuleField;
