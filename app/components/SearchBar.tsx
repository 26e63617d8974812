import type { FormEvent, ReactNode } from 'react';
import { Box, Button, Paper, TextField, type SxProps, type Theme } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useTranslate } from 'react-admin';

/** The buttons' test ids: each list keeps its own. */
export interface SearchTestIds {
  query: string;
  reset?: string;
}

/**
 * Query and Reset of a search. Without `onQuery` Query is the submit button of the form it stands in
 * (Enter in a text box of that form queries too); without `onReset` there is no Reset.
 */
export function SearchButtons({ onQuery, onReset, testIds }: { onQuery?: () => void; onReset?: () => void; testIds: SearchTestIds }) {
  const translate = useTranslate();
  return (
    <>
      <Button variant="contained" startIcon={<SearchIcon />} type={onQuery ? 'button' : 'submit'} onClick={onQuery && (() => onQuery())} data-testid={testIds.query}>
        {translate('common.query')}
      </Button>
      {onReset && (
        <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={onReset} data-testid={testIds.reset}>
          {translate('common.reset')}
        </Button>
      )}
    </>
  );
}

/** A text filter; `onEnter`: what Enter does (in a search bar that is no form, it queries). */
export function SearchText({ label, placeholder, value, onChange, onEnter, testId, sx }: { label: string; placeholder?: string; value: string; onChange: (value: string) => void; onEnter?: () => void; testId: string; sx?: SxProps<Theme> }) {
  return (
    <TextField
      size="small"
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onEnter && ((e) => e.key === 'Enter' && onEnter())}
      sx={sx}
      slotProps={{ htmlInput: { 'data-testid': testId } }}
    />
  );
}

const BAR = { p: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' } as const;

export interface SearchBarProps {
  /** The filters. */
  children: ReactNode;
  onQuery: () => void;
  onReset: () => void;
  testIds: Required<SearchTestIds>;
  /** The bar is a form: Enter in any of its text boxes queries. Otherwise each filter says what its Enter does. */
  form?: boolean;
  /** Beside the buttons (an auto-refresh switch). */
  extra?: ReactNode;
  /** At the bar's right end (a view switch, imports and exports, the add button). */
  actions?: ReactNode;
  /** The spacing of the page it stands in (a margin below it, a tighter gap). */
  sx?: SxProps<Theme>;
}

/** The search bar above a list: its filters, Query and Reset, then what else the list offers at the right. */
export function SearchBar({ children, onQuery, onReset, testIds, form = false, extra, actions, sx }: SearchBarProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onQuery();
  };
  return (
    <Paper variant="outlined" component={form ? 'form' : 'div'} onSubmit={form ? submit : undefined} sx={[BAR, ...(Array.isArray(sx) ? sx : [sx])]}>
      {children}
      <SearchButtons onQuery={form ? undefined : onQuery} onReset={onReset} testIds={testIds} />
      {extra}
      {actions !== undefined && (
        <>
          <Box sx={{ flex: 1 }} />
          {actions}
        </>
      )}
    </Paper>
  );
}

export default SearchBar;
