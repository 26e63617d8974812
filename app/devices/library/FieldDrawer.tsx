/**
 * 'View description library details' (spec 001 §2.11): the fields of one library in the generic list,
 * searched by keyword, with create, view, edit and delete, the switch and hardware alarm rows inside the
 * field form, the description cut at 50 characters (the whole text on hover) and the description import.
 */
import { useMemo } from 'react';
import { Box, Drawer, IconButton, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from 'react-admin';
import { resourceConfig } from '../../resources/config';
import { SchemaList } from '../../components/SchemaList';
import type { Row } from '../../components/FormDialog';
import type { FieldError, FormValues } from '../../components/validate';
import { ConfRows, HARDWARE_WARNS, SWITCHES } from './ConfRows';
import { LibraryImport } from './LibraryImport';

/** Spec 001 §2.11: the table shows the first 50 characters of a description. */
export const DESCRIPTION_CUT = 50;
const ENTITY_TYPES = [7, 8];
const EXTRA_KEYS = [SWITCHES, HARDWARE_WARNS];

export function cutText(text: unknown, max = DESCRIPTION_CUT): string {
  const s = String(text ?? '');
  return s.length > max ? `${s.slice(0, max)}...` : s;
}

function Description({ row }: { row: Row }) {
  const text = String(row.fJsonDes ?? '');
  if (!text) return <>-</>;
  if (text.length <= DESCRIPTION_CUT) return <>{text}</>;
  return (
    <Tooltip title={text}>
      <span data-testid="conf-description">{cutText(text)}</span>
    </Tooltip>
  );
}

/** Spec 001 §5: an entity or entity-array field names its lower library. */
function validate(values: FormValues): Record<string, FieldError> {
  if (ENTITY_TYPES.includes(Number(values.fDataType)) && (values.fJsonSubId === '' || values.fJsonSubId === null || values.fJsonSubId === undefined)) {
    return { fJsonSubId: { key: 'library.subRequired' } };
  }
  return {};
}

export function FieldDrawer({ library, onClose }: { library: Row | null; onClose: () => void }) {
  const translate = useTranslate();
  const config = useMemo(() => {
    const conf = resourceConfig('productJsonConf');
    // The library is the drawer's: not a filter to type nor a field to pick.
    return { ...conf, list: { ...conf.list, filters: conf.list.filters.filter((f) => f.key !== 'fProductJsonId') } };
  }, []);
  const libraryId = library?.fId as number | undefined;
  const fixed = useMemo(() => ({ fProductJsonId: libraryId }), [libraryId]);
  return (
    <Drawer anchor="right" open={library !== null} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', lg: 1100 } } } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }} data-testid="library-drawer">
        <Typography variant="h6" sx={{ flex: 1 }}>
          {translate('library.drawerTitle', { name: String(library?.fName ?? '') })}
        </Typography>
        <IconButton onClick={onClose} aria-label={translate('common.close')}>
          <CloseIcon />
        </IconButton>
      </Box>
      {libraryId !== undefined && (
        <SchemaList
          config={config}
          fixedFilter={fixed}
          view
          cells={{ fJsonDes: (row) => <Description row={row} /> }}
          toolbar={<LibraryImport libraryId={libraryId} />}
          form={{
            fixed,
            validate,
            extraKeys: EXTRA_KEYS,
            extra: (props) => <ConfRows {...props} />,
            isVisible: (source, values) =>
              source !== 'fProductJsonId' &&
              (source !== 'fJsonSubId' || ENTITY_TYPES.includes(Number(values.fDataType))) &&
              (!['fWarnType', 'fWarnMin', 'fWarnMax'].includes(source) || Number(values.fIsWarn) === 1),
          }}
        />
      )}
    </Drawer>
  );
}
