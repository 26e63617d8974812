/**
 * Help manuals and the other document lists (spec 002 §2 items 12–13): the generic list of the resource
 * (title filter, status switch saved at once, edit and delete by the list's codes, cover thumbnail) and a
 * read button that shows a document formatted, as its readers see it.
 */
import { useState } from 'react';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { SchemaList } from '../../components/SchemaList';
import type { Row } from '../../components/FormDialog';
import type { ResourceConfig } from '../../resources/types';
import { RichTextView } from '../../components/richtext/RichTextView';
import { FieldValue } from '../../components/FieldValue';
import { imageUrl } from '../../components/api';

/** The fields a read view shows: the first column as the title, the first picture and the first rich text. */
function readerFields(config: ResourceConfig) {
  const fields = Object.values(config.fields);
  return {
    title: config.list.columns[0],
    image: fields.find((f) => f.widget === 'image')?.source,
    body: fields.find((f) => f.widget === 'richText')?.source,
    meta: config.list.columns.filter((c) => config.fields[c]?.type === 'date-time' || config.fields[c]?.enum),
  };
}

export function DocumentReader({ config, row, onClose }: { config: ResourceConfig; row: Row | null; onClose: () => void }) {
  const translate = useTranslate();
  const { title, image, body, meta } = readerFields(config);
  const cover = image && row ? imageUrl(row[image] as string) : null;
  return (
    <Dialog open={Boolean(row)} onClose={onClose} fullWidth maxWidth="md" data-testid="document-reader">
      {row && (
        <>
          <DialogTitle data-testid="document-reader-title">{String(row[title] ?? '')}</DialogTitle>
          <DialogContent dividers>
            <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mb: 1.5, color: 'text.secondary' }}>
              {meta.map((c) => (
                <Typography key={c} variant="caption">
                  {translate(config.fields[c].label)}: <FieldValue field={config.fields[c]} row={row} />
                </Typography>
              ))}
            </Box>
            {cover && <Box component="img" src={cover} alt="" sx={{ maxWidth: '100%', maxHeight: 240, borderRadius: 1, mb: 1.5, display: 'block' }} />}
            {body && <RichTextView html={row[body]} testId="document-reader-body" />}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose} autoFocus data-testid="document-reader-close">
              {translate('richText.close')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

export default function DocumentList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const [reading, setReading] = useState<Row | null>(null);
  return (
    <>
      <SchemaList
        config={config}
        form={{ maxWidth: 'lg' }}
        rowActions={(row) => (
          <Button size="small" onClick={() => setReading(row)} data-testid="list-read">
            {translate('richText.read')}
          </Button>
        )}
      />
      <DocumentReader config={config} row={reading} onClose={() => setReading(null)} />
    </>
  );
}
