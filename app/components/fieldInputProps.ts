/** What every input of a generated form takes (FieldInput and the inputs it chooses among). */
import type { FieldConfig } from '../resources/types';

export interface FieldInputProps {
  field: FieldConfig;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled?: boolean;
  /** Already translated message of a failed rule. */
  error?: string;
  /** The whole form's values, for inputs that show more than their own field (the address path). */
  record?: Record<string, unknown>;
  /** Sets another value of the form (a picked district fills its code and its name). */
  setValue?: (source: string, value: unknown) => void;
}
