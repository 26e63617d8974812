import { useState } from 'react';

/**
 * Whether a dialog or drawer has been opened yet. One never opened renders nothing: MUI's closed modal
 * still renders and mounts its effects, on every render of the page around it. Once opened it stays
 * mounted, so its closing transition plays.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
