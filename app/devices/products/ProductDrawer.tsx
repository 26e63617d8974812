import { useState } from 'react';
import { Box, Tab, Tabs } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DetailDrawer } from '../../components/DetailDrawer';
import { DetailFields } from '../../components/FieldValue';
import { MessageLog } from '../tabs/logs';
import type { ResourceConfig } from '../../resources/types';
import type { ProductRow } from './ProductCard';
import { ProductProperties } from './ProductProperties';

const INFO_FIELDS = ['fNumber', 'fName', 'fCategoryId', 'fProtocol', 'fDeviceType', 'fCommunicationType', 'fFunctionIds', 'fStatKeys', 'fFirmwareVersion', 'fPower', 'fNumberRule', 'fStatus', 'deviceCount', 'fIntime', 'fRemark'];

/** Product detail: its fields with its properties, and the message log of the product's devices. */
export function ProductDrawer({ config, row, onClose }: { config: ResourceConfig; row: ProductRow | null; onClose: () => void }) {
  const translate = useTranslate();
  const [tab, setTab] = useState('info');
  return (
    <DetailDrawer record={row} onClose={onClose} width={800} testId="product-drawer" title={(r) => `${translate('product.detail')} · ${String(r.fName ?? '')}`}>
      {(row) => (
        <>
          <Tabs value={tab} onChange={(_e, v: string) => setTab(v)} sx={{ px: 2 }}>
            <Tab value="info" label={translate('product.tabs.info')} data-testid="product-tab-info" />
            <Tab value="log" label={translate('product.tabs.log')} data-testid="product-tab-log" />
          </Tabs>
          <Box sx={{ p: 2, overflow: 'auto', flex: 1 }}>
            {tab === 'info' && (
              <>
                <DetailFields config={config} row={row} sources={INFO_FIELDS} />
                <ProductProperties key={String(row.fId)} productId={Number(row.fId)} />
              </>
            )}
            {tab === 'log' && <MessageLog scope={{ productId: Number(row.fId) }} />}
          </Box>
        </>
      )}
    </DetailDrawer>
  );
}
