/**
 * Description libraries (spec 001 §2.11): the generic list as a tree (resource `list.tree`), with the
 * Bid options of §9, the query library only for send libraries, and a button opening the field drawer.
 */
import { useMemo, useState } from 'react';
import { Button } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useCan } from '../../auth/useCan';
import { SchemaList } from '../../components/SchemaList';
import type { Row } from '../../components/FormDialog';
import type { ResourceConfig } from '../../resources/types';
import { BID_VALUES } from './bids';
import { FieldDrawer } from './FieldDrawer';

const SEND = 2;

/** fBid as a select of the Bid options (the schema keeps it text: named bids of the device protocol too). */
function withBidOptions(config: ResourceConfig): ResourceConfig {
  const bid = config.fields.fBid;
  return { ...config, fields: { ...config.fields, fBid: { ...bid, values: BID_VALUES, pattern: undefined } } };
}

export function LibraryList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const canLook = useCan('json_conf:look');
  const [library, setLibrary] = useState<Row | null>(null);
  const shown = useMemo(() => withBidOptions(config), [config]);
  return (
    <>
      <SchemaList
        config={shown}
        rowActions={(row) =>
          canLook && (
            <Button size="small" onClick={() => setLibrary(row)} data-testid="library-detail">
              {translate('library.detail')}
            </Button>
          )
        }
        form={{ isVisible: (source, values) => source !== 'fSearchJsonId' || Number(values.fType) === SEND }}
      />
      <FieldDrawer library={library} onClose={() => setLibrary(null)} />
    </>
  );
}

export default LibraryList;
