/**
 * A device's settings edited in place as rows of a table, each saved or deleted on its own (the alarm
 * cabinet's thresholds, the timed switch's schedules). A new row lives only here until it is saved, and
 * deleting it just drops it; a failed save keeps the row as typed, with the server's message on it. The
 * texts come from the tab's catalogue section: saved, saveFailed, save, confirmDelete, deleted, deleteFailed.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { CircularProgress, IconButton, TextField, Tooltip, type SxProps, type Theme } from '@mui/material';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useNotify, useTranslate } from 'react-admin';
import { useConfirm } from '../../../components/ConfirmDialog';
import type { CallRow } from '../../../../adapters/dataProvider';
import { useRequest } from '../../../components/calls';
import { AddButton } from '../../../components/AddButton';
import { DataTable, type DataColumn, type DataTableProps } from '../../../components/DataTable';
import { TitledSection } from '../../../components/TitledSection';

interface Flags {
  dirty?: boolean;
  saving?: boolean;
  error?: string;
}
export type Draft<T> = T & Flags & { key: number };

/** The entities whose rows a tab edits in place. */
export type DraftEntity = 'deviceSwitch' | 'deviceAlarmCabinet';
/** A row as its entity's list answers it. */
type StoredRow<E extends DraftEntity> = CallRow<`${E}.list`>;
/** A row while it is edited: the stored row, a field possibly holding the text typed into it until it is saved. */
export type EditedRow<E extends DraftEntity> = { [K in keyof StoredRow<E>]?: K extends 'fId' ? StoredRow<E>[K] : StoredRow<E>[K] | string };

interface Options<E extends DraftEntity> {
  canList: boolean;
  deviceId: number;
  /** The entity whose list, save and delete calls serve the rows. */
  entity: E;
  /** The values of a new row. */
  fresh: EditedRow<E>;
  /** The catalogue section of the texts. */
  texts: string;
}

export function useRowDrafts<E extends DraftEntity>({ canList, deviceId, entity, fresh, texts }: Options<E>) {
  type T = EditedRow<E>;
  const translate = useTranslate();
  const request = useRequest();
  const calls = { list: `${entity}.list`, save: `${entity}.save`, delete: `${entity}.delete` } as const;
  const notify = useNotify();
  const { ask, dialog } = useConfirm();
  const nextKey = useRef(1);
  const [rows, setRows] = useState<Draft<T>[]>([]);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const res = await request(calls.list, { fDeviceId: deviceId });
    setLoading(false);
    // The entity's list answers its stored rows (StoredRow<E>), each a draft with nothing typed into it yet:
    // what the compiler cannot follow through the entity's generic name.
    const stored = (res.ok ? (res.data ?? []) : []) as T[];
    setRows(stored.map((r) => ({ ...r, key: nextKey.current++ })));
  }, [canList, deviceId, calls.list, request]);
  useEffect(() => {
    void load();
  }, [load]);

  const patch = (key: number, p: Partial<T> | Flags) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...p } : r)));
  /** A change typed into a row: it now differs from what is saved, and its last error is gone. */
  const change = (key: number, p: Partial<T>) => patch(key, { ...p, dirty: true, error: undefined });
  const add = () => setRows((rs) => [...rs, { ...fresh, key: nextKey.current++, dirty: true }]);

  /** Saves a row with the body the tab made of it, or marks it with `error` (a catalogue key) instead. */
  const save = async (row: Draft<T>, body: object | { error: string }) => {
    if ('error' in body) {
      patch(row.key, { error: translate(body.error) });
      return;
    }
    patch(row.key, { saving: true, error: undefined });
    const res = await request(calls.save, { ...(row.fId ? { fId: row.fId } : {}), ...body, fDeviceId: deviceId });
    if (res.ok && res.data) {
      notify(translate(`${texts}.saved`), { type: 'success' });
      // Only this row takes the server's copy; other unsaved rows stay as they are.
      patch(row.key, { ...(res.data as Partial<T>), dirty: false, saving: false });
    } else {
      patch(row.key, { saving: false, error: res.message });
      if (!res.announced) notify(translate(`${texts}.saveFailed`, { message: res.message }), { type: 'error' });
    }
  };

  const remove = (row: Draft<T>) => {
    if (!row.fId) {
      setRows((rs) => rs.filter((r) => r.key !== row.key));
      return;
    }
    ask(translate(`${texts}.confirmDelete`), async () => {
      const res = await request(calls.delete, { fId: row.fId });
      if (res.ok) {
        notify(translate(`${texts}.deleted`), { type: 'success' });
        setRows((rs) => rs.filter((r) => r.key !== row.key));
      } else if (!res.announced) notify(translate(`${texts}.deleteFailed`, { message: res.message }), { type: 'error' });
    });
  };

  return { rows, loading, change, add, save, remove, dialog };
}

export type Drafts<E extends DraftEntity> = ReturnType<typeof useRowDrafts<E>>;

/** A row's save and delete buttons; `prefix` names their test ids (`cabinet-save`, `schedule-delete`). */
export function DraftActions({ row, texts, prefix, onSave, onDelete }: { row: Draft<unknown>; texts: string; prefix: string; onSave?: () => void; onDelete?: () => void }) {
  const translate = useTranslate();
  return (
    <>
      {onSave && (
        <Tooltip title={translate(`${texts}.save`)}>
          <span>
            <IconButton size="small" color={row.dirty ? 'primary' : 'default'} onClick={onSave} disabled={row.saving} data-testid={`${prefix}-save`}>
              {row.saving ? <CircularProgress size={18} /> : <SaveIcon fontSize="small" />}
            </IconButton>
          </span>
        </Tooltip>
      )}
      {onDelete && (
        <Tooltip title={translate('common.delete')}>
          <span>
            <IconButton size="small" color="error" onClick={onDelete} disabled={row.saving} data-testid={`${prefix}-delete`}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      )}
    </>
  );
}

/** A choice in a row's cell, named for screen readers by its column (`label`); `displayEmpty` shows a blank value's item. */
export function DraftSelect({ value, onChange, disabled, label, testId, displayEmpty, children }: { value: unknown; onChange: (value: string) => void; disabled: boolean; label: string; testId: string; displayEmpty?: boolean; children: ReactNode }) {
  return (
    <TextField
      select
      size="small"
      fullWidth
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{ htmlInput: { 'data-testid': testId }, select: { displayEmpty, inputProps: { 'aria-label': label } } }}
    >
      {children}
    </TextField>
  );
}

/**
 * The tab of the rows: its title with the add button (for a user who may add), the rows' table, or the
 * empty state alone while there is none. `prefix` names the test ids (`cabinet-add`, `cabinet-table`,
 * `cabinet-row`); `detail`: what shows under a row.
 */
export function DraftsTable<E extends DraftEntity>({ drafts, title, texts, prefix, testId, canAdd, columns, detail, tableSx }: {
  drafts: Drafts<E>;
  title: string;
  texts: string;
  prefix: string;
  testId: string;
  canAdd: boolean;
  columns: DataColumn<Draft<EditedRow<E>>>[];
  detail?: DataTableProps<Draft<EditedRow<E>>>['detail'];
  tableSx?: SxProps<Theme>;
}) {
  const translate = useTranslate();
  return (
    <TitledSection testId={testId} title={title} actions={canAdd && <AddButton size="small" onClick={drafts.add} label={translate(`${texts}.add`)} testId={`${prefix}-add`} />}>
      <DataTable
        rows={drafts.rows}
        rowKey={(r) => r.key}
        loading={drafts.loading}
        empty={translate(`${texts}.empty`)}
        emptyAlone
        bordered
        containerProps={{ 'data-testid': `${prefix}-table` }}
        tableProps={tableSx ? { sx: tableSx } : undefined}
        rowProps={(r) => ({ hover: false, 'data-testid': `${prefix}-row`, 'data-id': r.fId ?? '', 'data-unsaved': r.fId ? undefined : 'true' })}
        detail={detail}
        columns={columns}
      />
      {drafts.dialog}
    </TitledSection>
  );
}
