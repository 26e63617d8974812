import { Checkbox, MenuItem } from '@mui/material';
import type { Option } from './lookups';

/**
 * A select's options as its items (a function, not a component: the select reads its items' values).
 * `ticked`: a select of several, each item with a checkbox padded `pad` as its select wants.
 */
export const optionItems = (options: Option[], ticked?: { chosen: string[]; pad: number }) =>
  options.map((o) => (
    <MenuItem key={String(o.value)} value={String(o.value)}>
      {ticked && <Checkbox size="small" checked={ticked.chosen.includes(String(o.value))} sx={{ p: ticked.pad, mr: 1 }} />}
      {o.label}
    </MenuItem>
  ));
