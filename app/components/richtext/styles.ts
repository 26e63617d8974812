import type { SxProps, Theme } from '@mui/material';

/** How rich text reads, in the editor and in the read view alike. */
export const richTextSx: SxProps<Theme> = {
  fontSize: 14,
  lineHeight: 1.7,
  wordBreak: 'break-word',
  '& h1': { fontSize: 26, m: '0.6em 0 0.4em' },
  '& h2': { fontSize: 21, m: '0.6em 0 0.4em' },
  '& h3': { fontSize: 17, m: '0.6em 0 0.3em' },
  '& h4': { fontSize: 15, m: '0.6em 0 0.3em' },
  '& p': { m: '0.3em 0' },
  '& img, & video': { maxWidth: '100%', height: 'auto', display: 'block', my: 1 },
  '& pre': { bgcolor: 'action.hover', p: 1.5, borderRadius: 1, overflowX: 'auto', fontFamily: 'monospace', fontSize: 13 },
  '& code': { fontFamily: 'monospace', bgcolor: 'action.hover', px: 0.5, borderRadius: 0.5 },
  '& pre code': { bgcolor: 'transparent', p: 0 },
  '& blockquote': { borderLeft: 3, borderColor: 'divider', pl: 1.5, ml: 0, color: 'text.secondary' },
};
