/**
 * # DateTimeInput — the console's one date and date-time picker
 *
 * ```tsx
 * <DateTimeInput label="开始时间" value={begin} onChange={setBegin} testId="oplog-begin" />          // 'YYYY-MM-DD HH:mm'
 * <DateTimeInput seconds label="开始时间" value={stime} onChange={setStime} />                      // 'YYYY-MM-DD HH:mm:ss'
 * <DateTimeInput mode="date" label="开始日期" value={day} onChange={setDay} />                        // 'YYYY-MM-DD'
 * <DateTimeInput mode="time" label="时间" value={at} onChange={setAt} />                              // 'HH:mm'
 * ```
 *
 * - Values are the API's wall-clock text in the server's time zone (the session says which; Asia/Shanghai
 *   by default), never the browser's: the calendar's "today" and the times shown are the server's.
 * - The calendar, its buttons and the field's section placeholders follow the language the console is
 *   set to (zh-CN, zh-TW, en-US), not the browser's locale; the field shows one unambiguous
 *   `YYYY-MM-DD HH:mm` order in every language, with a 24-hour clock.
 * - Keyboard: the field's year, month, day, hour and minute sections take digits (typing moves on to
 *   the next section), ↑ ↓ step a section, ← → move between sections, Backspace clears one; the
 *   calendar button opens the picker, whose days, hours and minutes are reachable with the arrow keys
 *   and Enter, and Esc closes it. Only complete, real dates are handed on; clearing hands on ''.
 */
import { useMemo } from 'react';
import type { SxProps } from '@mui/material';
import { useLocaleState } from 'react-admin';
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/en';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import { enUS, zhCN, zhTW } from '@mui/x-date-pickers/locales';
import { getServerTimeZone } from '../../adapters/authProvider';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(customParseFormat);

/** The console's languages → the calendar's locale and the picker's texts. */
const LOCALES: Record<string, { adapter: string; text: typeof enUS }> = {
  'zh-CN': { adapter: 'zh-cn', text: zhCN },
  'zh-TW': { adapter: 'zh-tw', text: zhTW },
  'en-US': { adapter: 'en', text: enUS },
};

export type DateTimeMode = 'datetime' | 'date' | 'time';

const formatOf = (mode: DateTimeMode, seconds: boolean) => {
  const time = seconds ? 'HH:mm:ss' : 'HH:mm';
  return mode === 'date' ? 'YYYY-MM-DD' : mode === 'time' ? time : `YYYY-MM-DD ${time}`;
};
/** A time of day is read on a fixed day: only its hours, minutes and seconds are ever handed on. */
const TIME_DAY = '2000-01-01';
const PATTERN = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** The server's current time, for defaults ("last 7 days") that must not follow the browser's clock zone. */
export const serverNow = (): Dayjs => dayjs().tz(getServerTimeZone());

/** A wall-clock text of the API ('YYYY-MM-DD[ HH:mm[:ss]]') as a moment in the server's zone; null when empty or not a date. */
export function parseServerTime(text: unknown, timeZone = getServerTimeZone()): Dayjs | null {
  const m = typeof text === 'string' ? PATTERN.exec(text.trim()) : null;
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1).map((v) => v ?? undefined) as string[];
  const pad = (v: string) => v.padStart(2, '0');
  const normal = `${y}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}`;
  const parsed = dayjs.tz(normal, 'YYYY-MM-DD HH:mm:ss', timeZone);
  // dayjs rolls 2026-02-30 over to March; a date that does not exist is no date.
  return parsed.isValid() && parsed.format('YYYY-MM-DD HH:mm:ss') === normal ? parsed : null;
}

export interface DateTimeInputProps {
  label: string;
  /** 'YYYY-MM-DD HH:mm[:ss]' (or 'YYYY-MM-DD' in date mode) in the server's time zone; '' for none. */
  value: string;
  onChange: (value: string) => void;
  mode?: DateTimeMode;
  /** Whether the value carries seconds (a date-time's seconds section is shown too). */
  seconds?: boolean;
  testId?: string;
  sx?: SxProps;
  disabled?: boolean;
  required?: boolean;
  /** A failed rule's message, shown under the field. */
  error?: string;
  /** Keep the line under the field for a message even without one, as a form's other fields do, so rows line up. */
  messageLine?: boolean;
  fullWidth?: boolean;
}

export function DateTimeInput({ label, value, onChange, mode = 'datetime', seconds = false, testId, sx, disabled, required, error, messageLine, fullWidth }: DateTimeInputProps) {
  const [locale] = useLocaleState();
  const language = LOCALES[locale] ?? LOCALES['zh-CN'];
  const timeZone = getServerTimeZone();
  const format = formatOf(mode, seconds);
  const picked = useMemo(() => parseServerTime(mode === 'time' && value ? `${TIME_DAY} ${value}` : value, timeZone), [mode, value, timeZone]);

  const change = (next: Dayjs | null) => {
    if (!next) {
      if (value) onChange('');
      return;
    }
    // A partly typed entry is not a date yet; it is handed on once every section is filled.
    if (!next.isValid()) return;
    const text = next.tz(timeZone).format(format);
    if (text !== value) onChange(text);
  };

  const common = {
    label,
    value: picked,
    onChange: change,
    format,
    timezone: timeZone,
    disabled,
    slotProps: {
      textField: {
        size: 'small' as const,
        required,
        error: Boolean(error),
        helperText: error || (messageLine ? ' ' : undefined),
        fullWidth,
        'data-testid': testId,
        'data-value': value,
        sx: { width: fullWidth ? undefined : mode === 'time' ? 140 : mode === 'date' ? 190 : seconds ? 270 : 240, ...sx },
      },
      // A time of day sits in narrow table cells; Backspace still empties its sections.
      field: { clearable: mode !== 'time' },
      actionBar: { actions: ['clear', 'today', 'accept'] as ('clear' | 'today' | 'accept')[] },
    },
  };
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={language.adapter} localeText={language.text.components.MuiLocalizationProvider.defaultProps.localeText}>
      {mode === 'date' ? (
        <DatePicker {...common} />
      ) : mode === 'time' ? (
        <TimePicker {...common} ampm={false} timeSteps={{ hours: 1, minutes: 1, seconds: 1 }} views={seconds ? ['hours', 'minutes', 'seconds'] : ['hours', 'minutes']} />
      ) : (
        <DateTimePicker {...common} ampm={false} timeSteps={{ hours: 1, minutes: 1, seconds: 1 }} views={seconds ? ['year', 'month', 'day', 'hours', 'minutes', 'seconds'] : ['year', 'month', 'day', 'hours', 'minutes']} />
      )}
    </LocalizationProvider>
  );
}

export default DateTimeInput;
