import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { EmptyState } from './EmptyState';

/** A page's parts in a column; for a user without the page's permission (`allowed` false), only the empty state. */
export function PageColumn({ testId, allowed = true, children }: { testId: string; allowed?: boolean; children: ReactNode }) {
  if (!allowed) return <EmptyState />;
  return (
    <Box data-testid={testId} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {children}
    </Box>
  );
}

export default PageColumn;
