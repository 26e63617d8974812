/**
 * # JurisdictionPicker — the one cascading picker of the address model
 *
 * Spec 002 §3: a lazy-loading cascading selector with kinds area, community, pcs, street, areatopcsto,
 * areatocommunityto, areatohome, areatoperson. Every filter or form that needs a jurisdiction uses it.
 *
 * ```tsx
 * const [value, setValue] = useState<JurisdictionValue | null>(null);
 * <JurisdictionPicker kind="community" value={value?.ids} onChange={setValue} />
 * // value: { ids: [440000, 440100, 440106, 44010601, 3], levels: ['province', …, 'community'],
 * //          labels: ['广东省', '广州市', '天河区', '石牌街', '石牌东村社区'],
 * //          last: { level: 'community', id: 3, label: '石牌东村社区' } }   (null when cleared)
 * ```
 *
 * - `kind` picks the levels (see KINDS): area = province → city → district; street adds the street;
 *   community / areatocommunityto add the community; pcs / areatopcsto end at the district's police
 *   station; building ends at the building (the house form); areatohome goes on to building → house;
 *   areatoperson to the house's people.
 * - `value` is the path of ids from the top; it may stop at any level (the app-version form takes the
 *   last selected level: `value.last`). Labels of a value set from outside are looked up lazily.
 * - Each level is loaded when its parent is chosen (the address calls, condition as the legacy
 *   cascader sends it; answers are cached for the session); an empty level reads 无数据.
 * - Clicking an option of the last level chooses it and closes; 确定 takes the path chosen so far (any
 *   level), 清除 empties it. Keyboard: Enter / ↓ opens; ↑ ↓ move in a column; → or Enter opens the next
 *   level; ← goes back a level; Esc closes.
 * - `jurisdictionLabel(value)` is the chosen path as one line ("广东省 / 广州市 / 天河区"); names are
 *   the address model's own, level captions (`jurisdiction.levels.*`) and texts are in three languages.
 * - `AreaJurisdictionFilter` serves the `{ value, onChange }` → `{ areaId, streetId, communityId }`
 *   shape of a list filter (the alarm lists' area filter).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Box, Button, CircularProgress, IconButton, InputAdornment, MenuItem, MenuList, Paper, Popover, TextField, Typography } from '@mui/material';
import ClearIcon from '@mui/icons-material/Clear';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useTranslate } from 'react-admin';
import { dataProvider, type CallName } from '../../adapters/dataProvider';

export type JurisdictionLevel = 'province' | 'city' | 'district' | 'street' | 'community' | 'building' | 'house' | 'person' | 'pcs';
export type JurisdictionKind = 'area' | 'street' | 'community' | 'areatocommunityto' | 'pcs' | 'areatopcsto' | 'building' | 'areatohome' | 'areatoperson';
export type JurisdictionId = number | string;

const AREA: JurisdictionLevel[] = ['province', 'city', 'district'];
export const KINDS: Record<JurisdictionKind, JurisdictionLevel[]> = {
  area: AREA,
  street: [...AREA, 'street'],
  community: [...AREA, 'street', 'community'],
  areatocommunityto: [...AREA, 'street', 'community'],
  pcs: [...AREA, 'pcs'],
  areatopcsto: [...AREA, 'pcs'],
  building: [...AREA, 'street', 'community', 'building'],
  areatohome: [...AREA, 'street', 'community', 'building', 'house'],
  areatoperson: [...AREA, 'street', 'community', 'building', 'house', 'person'],
};

export interface JurisdictionOption {
  id: JurisdictionId;
  label: string;
}

export interface JurisdictionValue {
  ids: JurisdictionId[];
  levels: JurisdictionLevel[];
  labels: string[];
  last: { level: JurisdictionLevel; id: JurisdictionId; label: string };
}

type Row = Record<string, unknown>;
const records = (data: unknown): Row[] => (Array.isArray(data) ? data : ((data as { records?: Row[] } | null)?.records ?? [])) as Row[];
const page = (condition: Row) => ({ current: 1, size: 1000, condition, ...condition });

/** Each level: the call that lists the children of the parent id, and how an answer row reads. */
const LOADERS: Record<JurisdictionLevel, { call: CallName; body: (parent: JurisdictionId) => Row; id: string; label: string }> = {
  province: { call: 'area.children', body: () => ({ fAreaId: 0 }), id: 'fAreaId', label: 'fAreaName' },
  city: { call: 'area.children', body: (p) => ({ fAreaId: p }), id: 'fAreaId', label: 'fAreaName' },
  district: { call: 'area.children', body: (p) => ({ fAreaId: p }), id: 'fAreaId', label: 'fAreaName' },
  street: { call: 'street.list', body: (p) => page({ fAreaId: p }), id: 'fStreetId', label: 'fStreetName' },
  community: { call: 'community.list', body: (p) => page({ fStreet: p }), id: 'id', label: 'fName' },
  building: { call: 'building.list', body: (p) => page({ fCommunityid: p }), id: 'id', label: 'fBuildingnum' },
  house: { call: 'house.list', body: (p) => page({ fBuildId: p }), id: 'fHouseId', label: 'fHouseName' },
  person: { call: 'person.list', body: (p) => page({ fHouseId: p }), id: 'fPersonId', label: 'fName' },
  pcs: { call: 'policeStation.list', body: (p) => page({ fAreaId: p }), id: 'fPoliceStaId', label: 'fPoliceStaName' },
};

const cache = new Map<string, Promise<JurisdictionOption[]>>();

/**
 * The options of one level under a parent id (the province level has none), cached for the session
 * (every picker of every page shares it, so it asks the data provider itself rather than through a hook).
 */
export function loadLevel(level: JurisdictionLevel, parent: JurisdictionId | undefined): Promise<JurisdictionOption[]> {
  const key = `${level}:${parent ?? ''}`;
  let hit = cache.get(key);
  if (!hit) {
    const l = LOADERS[level];
    hit = dataProvider.call(l.call, l.body(parent ?? 0), { quiet: true })
      .then((e) => records(e.data).map((r) => ({ id: r[l.id] as JurisdictionId, label: String(r[l.label] ?? r[l.id]) })))
      .catch((error) => {
        cache.delete(key);
        throw error;
      });
    cache.set(key, hit);
  }
  return hit;
}

/** Forget cached levels (after an address is added or changed). */
export const invalidateJurisdictions = () => cache.clear();

/**
 * Province, city and district of a district code: the region codes are GB/T 2260 (440106 is in
 * 440100, which is in 440000), so the path needs no call.
 */
export function areaPath(districtId: JurisdictionId | null | undefined): number[] {
  const code = Number(districtId);
  if (!Number.isInteger(code) || code <= 0) return [];
  const province = Math.floor(code / 10000) * 10000;
  const city = Math.floor(code / 100) * 100;
  return [province, city, code].filter((c, i, all) => all.indexOf(c) === i);
}

/** The path of ids as far as the given ids go (stops at the first missing one). */
export function idPath(...ids: (JurisdictionId | null | undefined)[]): JurisdictionId[] {
  const out: JurisdictionId[] = [];
  for (const id of ids) {
    if (id === null || id === undefined || id === '') break;
    out.push(id);
  }
  return out;
}

/** The chosen path as one line: names joined by " / ". */
export const jurisdictionLabel = (value: Pick<JurisdictionValue, 'labels'> | null | undefined) => (value?.labels ?? []).join(' / ');

function valueOf(levels: JurisdictionLevel[], path: JurisdictionOption[]): JurisdictionValue | null {
  if (!path.length) return null;
  const last = path[path.length - 1];
  return { ids: path.map((o) => o.id), labels: path.map((o) => o.label), levels: levels.slice(0, path.length), last: { level: levels[path.length - 1], id: last.id, label: last.label } };
}

export interface JurisdictionPickerProps {
  kind: JurisdictionKind;
  /** Ids of the chosen path from the top; empty or absent: nothing chosen. */
  value?: JurisdictionId[] | null;
  onChange: (value: JurisdictionValue | null) => void;
  /** Caption; by default the kind's caption (辖区, 派出所, 楼栋…). */
  label?: string;
  disabled?: boolean;
  required?: boolean;
  error?: string;
  /** Width of the field; the form gives fullWidth. */
  fullWidth?: boolean;
  testId?: string;
}

export function JurisdictionPicker({ kind, value, onChange, label, disabled, required, error, fullWidth, testId = 'jurisdiction' }: JurisdictionPickerProps) {
  const translate = useTranslate();
  const levels = KINDS[kind];
  const anchor = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  // What the field shows: the committed path (labels looked up when the value comes from outside).
  const [shown, setShown] = useState<JurisdictionOption[]>([]);
  // What the open popover has chosen so far, its loaded columns, and which column has the focus.
  const [draft, setDraft] = useState<JurisdictionOption[]>([]);
  const [columns, setColumns] = useState<(JurisdictionOption[] | null)[]>([]);
  const [failed, setFailed] = useState(false);
  const [focus, setFocus] = useState(0);
  const ids = useMemo(() => (value ?? []).slice(0, levels.length), [value, levels.length]);
  const idsKey = ids.join('/');

  // Resolve the labels of a value set from outside, level by level.
  useEffect(() => {
    if (shown.map((o) => o.id).join('/') === idsKey) return;
    let live = true;
    void (async () => {
      const out: JurisdictionOption[] = [];
      for (const [i, id] of ids.entries()) {
        const options = await loadLevel(levels[i], i ? ids[i - 1] : undefined).catch(() => [] as JurisdictionOption[]);
        out.push(options.find((o) => String(o.id) === String(id)) ?? { id, label: String(id) });
      }
      if (live) setShown(out);
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [idsKey, kind]);

  const loadColumn = useCallback(
    (index: number, parent: JurisdictionId | undefined) => {
      setColumns((cols) => [...cols.slice(0, index), null]);
      loadLevel(levels[index], parent)
        .then((options) => setColumns((cols) => (cols.length === index + 1 ? [...cols.slice(0, index), options] : cols)))
        .catch(() => {
          setFailed(true);
          setColumns((cols) => (cols.length === index + 1 ? [...cols.slice(0, index), []] : cols));
        });
    },
    [levels],
  );

  const openPopover = () => {
    if (disabled) return;
    setFailed(false);
    const path = shown.map((o) => o.id).join('/') === idsKey ? shown : [];
    setDraft(path);
    // The columns of the chosen path, and the next one when there is a next level.
    const count = Math.min(path.length + 1, levels.length);
    setColumns(Array(count).fill(null));
    for (let i = 0; i < count; i++) {
      void loadLevel(levels[i], i ? path[i - 1].id : undefined)
        .then((options) => setColumns((cols) => cols.map((c, k) => (k === i ? options : c))))
        .catch(() => setFailed(true));
    }
    setFocus(Math.max(0, count - 1));
    setOpen(true);
  };

  const commit = (path: JurisdictionOption[]) => {
    setShown(path);
    setOpen(false);
    onChange(valueOf(levels, path));
  };

  const choose = (index: number, option: JurisdictionOption, moveFocus: boolean) => {
    const path = [...draft.slice(0, index), option];
    setDraft(path);
    if (index === levels.length - 1) return commit(path);
    loadColumn(index + 1, option.id);
    if (moveFocus) setFocus(index + 1);
  };

  const onKey = (index: number, option: JurisdictionOption) => (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight' || e.key === 'Enter') {
      e.preventDefault();
      choose(index, option, true);
    } else if (e.key === 'ArrowLeft' && index > 0) {
      e.preventDefault();
      setFocus(index - 1);
    }
  };

  const text = shown.map((o) => o.label).join(' / ');
  const caption = label ?? translate(`jurisdiction.kinds.${kind}`);
  return (
    <>
      <TextField
        ref={anchor}
        size="small"
        label={caption}
        value={text}
        placeholder={translate('jurisdiction.placeholder')}
        required={required}
        disabled={disabled}
        error={Boolean(error)}
        helperText={error}
        fullWidth={fullWidth}
        sx={fullWidth ? undefined : { minWidth: 340 }}
        onClick={openPopover}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === 'ArrowDown' || e.key === ' ') {
            e.preventDefault();
            openPopover();
          }
        }}
        data-testid={testId}
        slotProps={{
          htmlInput: { readOnly: true, 'data-testid': `${testId}-input`, title: shown.map((o, i) => `${translate(`jurisdiction.levels.${levels[i]}`)}: ${o.label}`).join('\n') || undefined, style: { cursor: 'pointer' } },
          input: {
            endAdornment: text && !disabled ? (
              <InputAdornment position="end">
                <IconButton
                  size="small"
                  aria-label={translate('jurisdiction.clear')}
                  onClick={(e) => {
                    e.stopPropagation();
                    commit([]);
                  }}
                  data-testid={`${testId}-clear`}
                >
                  <ClearIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ) : undefined,
          },
        }}
      />
      <Popover open={open} anchorEl={anchor.current} onClose={() => setOpen(false)} anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }} slotProps={{ paper: { 'data-testid': `${testId}-panel` } as object }}>
        <Box sx={{ display: 'flex', maxWidth: '90vw', overflowX: 'auto' }}>
          {columns.map((options, i) => (
            <Paper key={`${i}-${i ? draft[i - 1]?.id : ''}`} square elevation={0} sx={{ width: 170, flex: '0 0 auto', borderRight: 1, borderColor: 'divider', maxHeight: 300, overflowY: 'auto' }} data-testid={`${testId}-level-${levels[i]}`}>
              <Typography variant="caption" color="text.secondary" sx={{ px: 2, pt: 1, display: 'block' }}>
                {translate(`jurisdiction.levels.${levels[i]}`)}
              </Typography>
              {options === null ? (
                <Box sx={{ p: 2, textAlign: 'center' }}>
                  <CircularProgress size={18} />
                </Box>
              ) : options.length === 0 ? (
                <Typography variant="body2" color="text.disabled" sx={{ px: 2, py: 1.5 }} data-testid={`${testId}-empty`}>
                  {translate(failed ? 'jurisdiction.failed' : 'jurisdiction.noData')}
                </Typography>
              ) : (
                <MenuList dense autoFocusItem={focus === i} variant="selectedMenu" sx={{ py: 0 }}>
                  {options.map((o) => {
                    const selected = String(draft[i]?.id) === String(o.id);
                    return (
                      <MenuItem key={String(o.id)} selected={selected} onClick={() => choose(i, o, true)} onKeyDown={onKey(i, o)} data-testid={`${testId}-option`} sx={{ justifyContent: 'space-between', gap: 1 }}>
                        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                          {o.label}
                        </Box>
                        {i < levels.length - 1 && <ChevronRightIcon fontSize="small" sx={{ color: 'text.disabled' }} />}
                      </MenuItem>
                    );
                  })}
                </MenuList>
              )}
            </Paper>
          ))}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1, borderTop: 1, borderColor: 'divider' }}>
          <Typography variant="caption" color="text.secondary" sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} data-testid={`${testId}-path`}>
            {draft.map((o) => o.label).join(' / ') || translate('jurisdiction.placeholder')}
          </Typography>
          <Button size="small" onClick={() => commit([])} data-testid={`${testId}-reset`}>
            {translate('jurisdiction.clear')}
          </Button>
          <Button size="small" variant="contained" onClick={() => commit(draft)} data-testid={`${testId}-confirm`}>
            {translate('jurisdiction.confirm')}
          </Button>
        </Box>
      </Popover>
    </>
  );
}

/** The area filter of a list: `{ areaId, streetId, communityId }` in and out (district, street, community). */
export interface AreaFilterValue {
  areaId?: number | string;
  streetId?: number | string;
  communityId?: number | string;
}

export function AreaJurisdictionFilter({ value, onChange, label }: { value: AreaFilterValue; onChange: (value: AreaFilterValue) => void; label?: string }) {
  const ids = useMemo(() => (value.areaId ? [...areaPath(value.areaId), ...idPath(value.streetId, value.communityId)] : []), [value.areaId, value.streetId, value.communityId]);
  return (
    <JurisdictionPicker
      kind="community"
      label={label}
      value={ids}
      onChange={(v) => {
        const at = (level: JurisdictionLevel) => (v ? v.ids[v.levels.indexOf(level)] : undefined);
        onChange({ areaId: at('district'), streetId: at('street'), communityId: at('community') });
      }}
    />
  );
}

export default JurisdictionPicker;
