import type { ReactNode } from 'react';
import { Box, Typography, type SxProps, type Theme } from '@mui/material';

/** A title with its buttons at the right: the head of a device tab, of a drawer's part. */
export function TitleRow({ title, children, sx }: { title: ReactNode; children?: ReactNode; sx?: SxProps<Theme> }) {
  return (
    <Box sx={[{ display: 'flex', alignItems: 'center' }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** A device tab's or panel's column: the title row (`actions` at its right), then the content. */
export function TitledSection({ title, actions, testId, children }: { title: ReactNode; actions?: ReactNode; testId: string; children: ReactNode }) {
  return (
    <Box data-testid={testId} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <TitleRow title={title}>{actions}</TitleRow>
      {children}
    </Box>
  );
}

export default TitledSection;
