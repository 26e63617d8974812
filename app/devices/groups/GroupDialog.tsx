import { useEffect, useMemo, useState } from 'react';
import { Box, Dialog, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { useAgents, useIsAdmin } from '../../components/lookups';
import { useRequest } from '../../components/calls';
import { DialogFooter } from '../../components/DialogFooter';
import { GROUP_CALLS, buildTree, subtreeIds, type Group, type TreeNode } from './api';

/** The legacy screens keep a failed validation's spinner this long so the click visibly registers. */
const VALIDATION_RESET_MS = 300;

export interface GroupDialogProps {
  open: boolean;
  /** The group being edited, or the defaults of a new one (its parent). */
  record: Partial<Group> | null;
  groups: Group[];
  onClose: () => void;
  onSaved: () => void;
}

/** Create/edit modal: parent group, name, owning agent (administrators only), description. */
export function GroupDialog({ open, record, groups, onClose, onSaved }: GroupDialogProps) {
  const translate = useTranslate();
  const request = useRequest();
  const notify = useNotify();
  const isAdmin = useIsAdmin();
  const { options: agents } = useAgents(open && isAdmin);
  const editing = Boolean(record?.fId);
  const [values, setValues] = useState({ fParentId: 0, fName: '', fUserId: '' as number | '', fRemork: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setValues({ fParentId: Number(record?.fParentId ?? 0), fName: record?.fName ?? '', fUserId: record?.fUserId ?? '', fRemork: record?.fRemork ?? '' });
    setErrors({});
    setBusy(false);
  }, [open, record]);

  // A group cannot move under itself or under one of its own sub-groups.
  const parents = useMemo(() => {
    const excluded = record?.fId ? subtreeIds(groups, record.fId) : new Set<number>();
    const flat: TreeNode[] = [];
    const walk = (nodes: TreeNode[]) => nodes.forEach((n) => (excluded.has(n.fId) ? undefined : (flat.push(n), walk(n.children))));
    walk(buildTree(groups));
    return flat;
  }, [groups, record]);

  const submit = async () => {
    setBusy(true);
    const found: Record<string, string> = {};
    if (!values.fName.trim()) found.fName = translate('groups.nameRequired');
    if (record?.fId && values.fParentId === record.fId) found.fParentId = translate('groups.sameParent');
    if (Object.keys(found).length) {
      setErrors(found);
      setTimeout(() => setBusy(false), VALIDATION_RESET_MS);
      return;
    }
    const body: Record<string, unknown> = { fParentId: values.fParentId, fName: values.fName.trim(), fRemork: values.fRemork, fLogo: record?.fLogo ?? undefined };
    if (record?.fId) body.fId = record.fId;
    if (isAdmin) body.fUserId = values.fUserId === '' ? null : values.fUserId;
    const res = await request(GROUP_CALLS.save, body);
    setBusy(false);
    if (res.ok) {
      notify(res.message || translate('groups.saved'), { type: 'success' });
      onSaved();
      onClose();
    } else if (!res.announced) notify(translate('groups.saveFailed', { message: res.message }), { type: 'error' });
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="group-dialog">
      <DialogTitle>{translate(editing ? 'groups.editTitle' : 'groups.addTitle')}</DialogTitle>
      <DialogContent dividers>
        <Box component="form" onSubmit={(e) => { e.preventDefault(); void submit(); }} sx={{ display: 'flex', flexDirection: 'column', gap: 1, pt: 1 }}>
          <TextField
            select
            size="small"
            label={translate('groups.parent')}
            value={values.fParentId}
            onChange={(e) => setValues((v) => ({ ...v, fParentId: Number(e.target.value) }))}
            error={Boolean(errors.fParentId)}
            helperText={errors.fParentId || ' '}
            slotProps={{ htmlInput: { 'data-testid': 'group-form-parent' } }}
          >
            <MenuItem value={0}>{translate('groups.top')}</MenuItem>
            {parents.map((p) => (
              <MenuItem key={p.fId} value={p.fId} sx={{ pl: 2 + p.depth * 2 }}>
                {p.fName}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            required
            label={translate('groups.name')}
            placeholder={translate('groups.namePlaceholder')}
            value={values.fName}
            onChange={(e) => {
              setValues((v) => ({ ...v, fName: e.target.value }));
              setErrors((er) => ({ ...er, fName: '' }));
            }}
            error={Boolean(errors.fName)}
            helperText={errors.fName || ' '}
            slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'group-form-name' } }}
          />
          {isAdmin && (
            <TextField
              select
              size="small"
              label={translate('groups.owner')}
              value={values.fUserId}
              onChange={(e) => setValues((v) => ({ ...v, fUserId: e.target.value === '' ? '' : Number(e.target.value) }))}
              helperText=" "
              slotProps={{ htmlInput: { 'data-testid': 'group-form-owner' }, select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">{translate('common.pleaseSelect')}</MenuItem>
              {agents.map((a) => (
                <MenuItem key={String(a.value)} value={a.value as number}>
                  {a.label}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            size="small"
            multiline
            minRows={3}
            label={translate('groups.remark')}
            value={values.fRemork}
            onChange={(e) => setValues((v) => ({ ...v, fRemork: e.target.value }))}
            slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'group-form-remark' } }}
          />
        </Box>
      </DialogContent>
      <DialogFooter onCancel={onClose} cancelWhileBusy onSubmit={() => void submit()} submitLabel="common.save" submitTestId="group-form-submit" busy={busy} />
    </Dialog>
  );
}
