import { useEffect, useState } from 'react';
import { TextField, type SxProps } from '@mui/material';
import { useTranslate } from 'react-admin';

const PATTERN = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const two = (n: number) => String(n).padStart(2, '0');

/** The typed text in the API's wall-clock format, or null when it is not a real date and time. */
export function parseWallTime(text: string, seconds: boolean): string | null {
  const m = PATTERN.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  const day = `${y}-${two(mo)}-${two(d)} ${two(h ?? 0)}:${two(mi ?? 0)}`;
  return seconds ? `${day}:${two(s ?? 0)}` : day;
}

/**
 * The console's one date-time input. The browser's native picker writes dates in the browser's locale
 * (MM/DD/YYYY in an English browser) whatever language the console speaks; this field reads and
 * writes the server's wall-clock format ('YYYY-MM-DD HH:mm[:ss]', the server's time zone) in every
 * language, says so in its placeholder, and hands on only complete, real dates.
 */
export function DateTimeInput({ label, value, onChange, seconds = false, testId, sx }: { label: string; value: string; onChange: (value: string) => void; seconds?: boolean; testId?: string; sx?: SxProps }) {
  const translate = useTranslate();
  const [text, setText] = useState(value);
  const [invalid, setInvalid] = useState(false);
  // A value set from outside (reset, a preset range) replaces what was typed.
  useEffect(() => {
    setText(value);
    setInvalid(false);
  }, [value]);
  const format = seconds ? 'YYYY-MM-DD HH:mm:ss' : 'YYYY-MM-DD HH:mm';
  const commit = (next: string) => {
    if (!next.trim()) {
      setInvalid(false);
      if (value) onChange('');
      return;
    }
    const parsed = parseWallTime(next, seconds);
    setInvalid(!parsed);
    if (parsed && parsed !== value) onChange(parsed);
  };
  return (
    <TextField
      size="small"
      label={label}
      value={text}
      placeholder={format}
      error={invalid}
      helperText={invalid ? translate('common.dateTimeFormat', { format }) : undefined}
      onChange={(e) => {
        setText(e.target.value);
        // A complete entry applies at once; a partial one waits for the field to be left.
        if (parseWallTime(e.target.value, seconds) || !e.target.value) commit(e.target.value);
      }}
      onBlur={() => commit(text)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: 'numeric', 'data-testid': testId } }}
      sx={{ width: seconds ? 210 : 190, ...sx } as SxProps}
    />
  );
}
