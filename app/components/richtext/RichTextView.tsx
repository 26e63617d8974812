import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { richTextSx } from './styles';

/**
 * Rich text as its readers see it. The HTML is what the server answers, which it has sanitised with the
 * editor's allow-list (server/crud/html.ts) on the way in and on the way out, so it is safe to render.
 */
export function RichTextView({ html, testId = 'rich-text-view' }: { html: unknown; testId?: string }) {
  const translate = useTranslate();
  if (typeof html !== 'string' || !html.trim())
    return (
      <Typography color="text.secondary" data-testid={testId}>
        {translate('richText.empty')}
      </Typography>
    );
  return <Box sx={richTextSx} data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The words of rich text without its markup, for a list cell. */
export function plainText(html: unknown, max = 60): string {
  if (typeof html !== 'string') return '';
  const text = html.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
  return text.length > max ? text.slice(0, max) + '…' : text;
}
