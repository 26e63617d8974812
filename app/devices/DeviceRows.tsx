import type { ReactNode } from 'react';
import { Box, Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ResourceConfig } from '../resources/types';
import { ActivationChip, DeviceCell, OnlineChip, columnLabel, type DeviceRow } from './cells';
import { DeviceAlarmChip } from './live/DeviceAlarms';
import { deviceType } from './DeviceDrawer';
import { DataTable, pagerFromOne } from '../components/DataTable';
import { TextAction } from '../components/IconAction';

export interface DeviceActions {
  /** Opens the detail drawer; offered only to users who cannot edit. */
  onView?: (row: DeviceRow) => void;
  onEdit?: (row: DeviceRow) => void;
  onToggle?: (row: DeviceRow) => void;
  onDelete?: (row: DeviceRow) => void;
  /** Use/remove (device:use); the row shows it only when its canUse is 1. */
  onUse?: (row: DeviceRow) => void;
}

/** Plastic-case breakers (type 6) are managed here only when their number names the RG or RW series (spec 000 §2). */
function managed(row: DeviceRow): boolean {
  return deviceType(row) !== 6 || /RG|RW/.test(String(row.fNumber ?? ''));
}

function ActionButtons({ row, actions }: { row: DeviceRow; actions: DeviceActions }) {
  const translate = useTranslate();
  const active = Number(row.fStatus) === 1;
  if (!managed(row)) return null;
  return (
    <>
      {actions.onView && <TextAction kind="view" onClick={() => actions.onView?.(row)} testId="device-view" />}
      {actions.onEdit && <TextAction kind="edit" onClick={() => actions.onEdit?.(row)} testId="device-edit" />}
      {actions.onToggle && (
        <Button
          size="small"
          color={active ? 'warning' : 'success'}
          onClick={() => actions.onToggle?.(row)}
          data-testid={active ? 'device-deregister' : 'device-activate'}
        >
          {translate(active ? 'device.deregister' : 'device.activate')}
        </Button>
      )}
      {actions.onDelete && <TextAction kind="delete" onClick={() => actions.onDelete?.(row)} testId="device-delete" />}
      {actions.onUse && Number(row.canUse) === 1 && (
        <Button size="small" color={Number(row.isUse) === 1 ? 'warning' : 'primary'} onClick={() => actions.onUse?.(row)} data-testid={Number(row.isUse) === 1 ? 'device-remove-use' : 'device-use'}>
          {translate(Number(row.isUse) === 1 ? 'deviceBulk.remove' : 'deviceBulk.use')}
        </Button>
      )}
    </>
  );
}

export interface DeviceTableProps {
  config: ResourceConfig;
  rows: DeviceRow[];
  total: number;
  page: number;
  perPage: number;
  loading: boolean;
  actions: DeviceActions;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
  /** Opens the detail drawer from the number link, whatever the user's permissions. */
  onOpen: (row: DeviceRow) => void;
  /** Renders the switch column (a live toggle for users who may control devices). */
  switchCell?: (row: DeviceRow) => ReactNode;
  /** Row selection for batch commands; no checkboxes without it. */
  selected?: number[];
  onSelect?: (ids: number[]) => void;
}

/**
 * The action column stays at the right edge of the table's box: with long (English) labels the table is
 * wider than its box and scrolls horizontally inside it, never pushing the buttons out of sight.
 */
const STICKY_ACTIONS = {
  whiteSpace: 'nowrap',
  position: 'sticky',
  right: 0,
  bgcolor: 'background.paper',
  boxShadow: '-6px 0 6px -4px rgba(0,21,41,0.12)',
} as const;

export function DeviceTable({ config, rows, total, page, perPage, loading, actions, onPageChange, onPerPageChange, onOpen, switchCell, selected, onSelect }: DeviceTableProps) {
  const translate = useTranslate();
  const columns = config.list.columns;
  const hasActions = Boolean(actions.onView || actions.onEdit || actions.onToggle || actions.onDelete || actions.onUse);
  return (
    <Box data-testid="device-table">
      <DataTable
        rows={rows}
        rowKey={(row) => row.fId}
        loading={loading} progressBar bordered stickyHeader
        containerProps={{ sx: { maxWidth: '100%' }, 'data-testid': 'device-table-box' }}
        rowProps={(row) => ({ 'data-testid': 'device-row', 'data-id': row.fId, selected: selected?.includes(row.fId) })}
        selection={
          onSelect
            ? {
                all: {
                  checked: rows.length > 0 && rows.every((r) => selected?.includes(r.fId)),
                  indeterminate: rows.some((r) => selected?.includes(r.fId)) && !rows.every((r) => selected?.includes(r.fId)),
                  onChange: (checked) => onSelect(checked ? rows.map((r) => r.fId) : []),
                  props: { slotProps: { input: { 'aria-label': 'select all', 'data-testid': 'device-select-all' } as object } },
                },
                row: (row) => ({
                  checked: Boolean(selected?.includes(row.fId)),
                  onChange: (checked) => onSelect(checked ? [...(selected ?? []), row.fId] : (selected ?? []).filter((id) => id !== row.fId)),
                  props: { slotProps: { input: { 'aria-label': String(row.fNumber), 'data-testid': 'device-select' } as object } },
                }),
              }
            : undefined
        }
        columns={[
          ...columns.map((c) => ({
            key: c,
            header: columnLabel(config, c, translate),
            headerSx: { whiteSpace: 'nowrap', fontWeight: 600 },
            cellSx: { whiteSpace: 'nowrap' },
            cell: (row: DeviceRow) =>
              c === 'fNumber' ? (
                <Box component="span" onClick={() => onOpen(row)} sx={{ color: 'primary.main', cursor: 'pointer' }}>
                  {String(row.fNumber ?? '-')}
                </Box>
              ) : c === 'switchStatus' && switchCell ? (
                switchCell(row)
              ) : (
                <DeviceCell config={config} row={row} source={c} />
              ),
          })),
          ...(hasActions
            ? [
                {
                  key: 'actions',
                  header: translate('common.actions'),
                  headerSx: { ...STICKY_ACTIONS, zIndex: 3, fontWeight: 600 },
                  cellSx: { ...STICKY_ACTIONS, py: 0, '& .MuiButton-root': { minWidth: 0, px: 0.75 } },
                  cell: (row: DeviceRow) => <ActionButtons row={row} actions={actions} />,
                },
              ]
            : []),
        ]}
        pager={pagerFromOne({ total, page, perPage, onPageChange }, { sizes: config.list.pageSizes?.length ? config.list.pageSizes : [10, 20, 50, 100], onSize: onPerPageChange, testId: 'device-pager' })}
      />
    </Box>
  );
}

/** A device in the card view. */
export function DeviceCard({ config, row, actions, onOpen }: { config: ResourceConfig; row: DeviceRow; actions: DeviceActions; onOpen: (row: DeviceRow) => void }) {
  const translate = useTranslate();
  const line = (source: string) => (
    <Box sx={{ display: 'flex', gap: 1, fontSize: 14, lineHeight: '26px', minWidth: 0 }}>
      <Box component="span" sx={{ color: 'text.secondary', flexShrink: 0 }}>
        {columnLabel(config, source, translate)}:
      </Box>
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        <DeviceCell config={config} row={row} source={source} />
      </Box>
    </Box>
  );
  return (
    <Card variant="outlined" data-testid="device-card" data-id={row.fId} sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      <CardContent sx={{ flex: 1, pb: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
          <Typography
            variant="subtitle1"
            onClick={() => onOpen(row)}
            sx={{ flex: 1, fontWeight: 600, cursor: 'pointer', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
            title={String(row.fName ?? '')}
          >
            {String(row.fName || row.fNumber || '')}
          </Typography>
          <OnlineChip value={row.tOnline} status={row.fStatus} />
          <DeviceAlarmChip deviceId={row.fId} />
          <ActivationChip value={row.fStatus} />
        </Box>
        {line('fNumber')}
        {line('fProductId')}
        {line('fTypeId')}
        {line('fLastOnlineTime')}
      </CardContent>
      <CardActions sx={{ borderTop: 1, borderColor: 'divider', justifyContent: 'space-around', px: 0.5, flexWrap: 'wrap', '& .MuiButton-root': { minWidth: 0, px: 1 }, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
        <ActionButtons row={row} actions={actions} />
      </CardActions>
    </Card>
  );
}
