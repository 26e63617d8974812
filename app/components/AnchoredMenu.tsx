import type { ReactNode } from 'react';
import { Menu } from '@mui/material';

const PLACES = {
  /** Under its button, right edges aligned (a toolbar's menu). */
  below: { anchorOrigin: { vertical: 'bottom', horizontal: 'right' }, transformOrigin: { vertical: 'top', horizontal: 'right' } },
  /** Beside its button, to the right (the collapsed side menu's sections). */
  right: { anchorOrigin: { vertical: 'top', horizontal: 'right' }, transformOrigin: { vertical: 'top', horizontal: 'left' } },
} as const;

/** A menu opened from a button (`anchor`, null while closed), placed below it or beside it. */
export function AnchoredMenu({ anchor, onClose, place = 'below', children }: { anchor: HTMLElement | null; onClose: () => void; place?: keyof typeof PLACES; children: ReactNode }) {
  return (
    <Menu anchorEl={anchor} open={!!anchor} onClose={onClose} {...PLACES[place]}>
      {children}
    </Menu>
  );
}

export default AnchoredMenu;
