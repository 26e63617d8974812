/** The single phone-or-ID input of the holographic and relation searches, with the spec's checks. */
import { InputAdornment, TextField } from '@mui/material';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import { useTranslate } from 'react-admin';
import { readSearch, type SearchTerm } from '../../../contract/personal';

/** The term to send ({ phone } or { idcard }) or the message key of what is wrong with the input. */
export const checkSearch = (value: string): SearchTerm => readSearch(value);

export function SearchField({ value, onChange, error, testId }: { value: string; onChange: (v: string) => void; error: string | null; testId: string }) {
  const translate = useTranslate();
  return (
    <TextField
      size="small"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={translate('intel.search.placeholder')}
      error={!!error}
      helperText={error ?? ' '}
      sx={{ width: 320 }}
      slotProps={{
        htmlInput: { 'data-testid': testId, maxLength: 18, autoComplete: 'off' },
        formHelperText: { 'data-testid': `${testId}-error` } as object,
        input: { startAdornment: <InputAdornment position="start"><PersonSearchIcon fontSize="small" /></InputAdornment> },
      }}
    />
  );
}
