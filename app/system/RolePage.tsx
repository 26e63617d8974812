import { useEffect, useState } from 'react';
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField } from '@mui/material';
import { Pager } from '../components/Pager';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useNotify, useTranslate } from 'react-admin';
import { useCan } from '../auth/useCan';
import { useConfirm } from '../components/ConfirmDialog';
import { EmptyState } from '../components/EmptyState';
import { request } from '../devices/tabs/timers/api';
import { CODES, PAGE_SIZE, PAGE_SIZES, ROLE_PATHS, type MenuNode, type Page, type RoleRow } from './api';
import { flatten, MenuTree, toggleNode } from './MenuTree';
import { useLoad } from './shared';

type Mode = 'add' | 'edit' | 'view';

/** Spec 002 screen 5: search by name, add, and per role view, edit, delete and permissions. */
export function RolePage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { ask, dialog } = useConfirm();
  const canList = useCan(CODES.roleList);
  const canAdd = useCan(CODES.roleAdd);
  const canEdit = useCan(CODES.roleEdit);
  const canDel = useCan(CODES.roleDel);
  const canSet = useCan(CODES.roleSet);
  const [name, setName] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZE);
  const [form, setForm] = useState<{ mode: Mode; row: RoleRow | null } | null>(null);
  const [granting, setGranting] = useState<RoleRow | null>(null);
  const { data, loading, reload } = useLoad<Page<RoleRow>>(ROLE_PATHS.list, { current: page + 1, size, condition: applied ? { name: applied } : {} }, canList, { records: [], total: 0 });

  const remove = (r: RoleRow) =>
    ask(translate('sys.role.confirmDelete'), async () => {
      const res = await request(ROLE_PATHS.remove, { id: r.id });
      if (res.ok) {
        notify(translate('sys.saved'), { type: 'success' });
        reload();
      } else if (!res.announced) notify(res.message || translate('sys.failed'), { type: 'error' });
    });

  if (!canList) return <EmptyState />;
  return (
    <Box data-testid="sys-role-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper variant="outlined" component="form" onSubmit={(e) => (e.preventDefault(), setPage(0), setApplied(name.trim()), reload())} sx={{ p: 2, display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField size="small" label={translate('sys.role.name')} value={name} onChange={(e) => setName(e.target.value)} sx={{ width: 220 }} slotProps={{ htmlInput: { 'data-testid': 'role-filter-name' } }} />
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid="role-query">
          {translate('common.query')}
        </Button>
        <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={() => (setName(''), setApplied(''), setPage(0))} data-testid="role-reset">
          {translate('common.reset')}
        </Button>
        <Box sx={{ flex: 1 }} />
        {canAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setForm({ mode: 'add', row: null })} data-testid="role-add">
            {translate('sys.role.add')}
          </Button>
        )}
      </Paper>
      <Paper variant="outlined">
        <TableContainer>
          <Table size="small" data-testid="role-table">
            <TableHead>
              <TableRow>
                <TableCell>{translate('sys.role.name')}</TableCell>
                <TableCell>{translate('sys.role.alias')}</TableCell>
                <TableCell>{translate('sys.role.users')}</TableCell>
                <TableCell align="right">{translate('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.records.map((r) => (
                <TableRow key={r.id} hover data-testid={`role-row-${r.alias}`}>
                  <TableCell>
                    {r.name} {r.builtIn && <Chip size="small" label={translate('sys.role.builtIn')} sx={{ ml: 1 }} />}
                  </TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{r.alias}</TableCell>
                  <TableCell>{r.userCount ?? 0}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {/* Spec 002 §6: view only for those who cannot edit. */}
                    {!canEdit && (
                      <Button size="small" onClick={() => setForm({ mode: 'view', row: r })} data-testid="role-view">
                        {translate('common.view')}
                      </Button>
                    )}
                    {canEdit && (
                      <Button size="small" onClick={() => setForm({ mode: 'edit', row: r })} data-testid="role-edit">
                        {translate('common.edit')}
                      </Button>
                    )}
                    {canDel && !r.builtIn && (
                      <Button size="small" color="error" onClick={() => remove(r)} data-testid="role-delete">
                        {translate('common.delete')}
                      </Button>
                    )}
                    {canSet && r.alias !== 'admin' && (
                      <Button size="small" color="secondary" onClick={() => setGranting(r)} data-testid="role-permissions">
                        {translate('sys.role.permissions')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {!data.records.length && !loading && (
                <TableRow>
                  <TableCell colSpan={4}>
                    <EmptyState />
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <Pager component="div" count={data.total} page={page} rowsPerPage={size} rowsPerPageOptions={PAGE_SIZES} onPageChange={(_e, p) => setPage(p)} onRowsPerPageChange={(e) => (setSize(Number(e.target.value)), setPage(0))} />
      </Paper>
      <RoleDialog form={form} onClose={() => setForm(null)} onSaved={reload} />
      <PermissionDialog role={granting} onClose={() => setGranting(null)} />
      {dialog}
    </Box>
  );
}

function RoleDialog({ form, onClose, onSaved }: { form: { mode: Mode; row: RoleRow | null } | null; onClose: () => void; onSaved: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [draft, setDraft] = useState({ name: '', alias: '' });
  const [errors, setErrors] = useState<{ name?: string; alias?: string }>({});
  const [busy, setBusy] = useState(false);
  const view = form?.mode === 'view';
  useEffect(() => {
    if (form) setDraft({ name: form.row?.name ?? '', alias: form.row?.alias ?? '' });
    setErrors({});
  }, [form]);
  const submit = async () => {
    if (view) return onClose();
    const e = { ...(!draft.name.trim() ? { name: 'sys.role.nameRequired' } : {}), ...(!draft.alias.trim() ? { alias: 'sys.role.aliasRequired' } : {}) };
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    const res = await request(ROLE_PATHS.save, { ...(form?.row ? { id: form.row.id } : {}), name: draft.name.trim(), alias: draft.alias.trim() });
    setBusy(false);
    if (res.ok) {
      notify(translate('sys.saved'), { type: 'success' });
      onSaved();
      onClose();
    } else if (!res.announced) notify(res.message || translate('sys.failed'), { type: 'error' });
  };
  const title = form?.mode === 'add' ? 'sys.role.addTitle' : form?.mode === 'edit' ? 'sys.role.editTitle' : 'sys.role.viewTitle';
  return (
    <Dialog open={!!form} onClose={onClose} maxWidth="xs" fullWidth data-testid="role-dialog">
      <DialogTitle>{translate(title)}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField required disabled={view} label={translate('sys.role.name')} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={!!errors.name} helperText={errors.name && translate(errors.name)} slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'role-form-name' } }} />
          <TextField required disabled={view || !!form?.row?.builtIn} label={translate('sys.role.alias')} value={draft.alias} onChange={(e) => setDraft({ ...draft, alias: e.target.value })} error={!!errors.alias} helperText={errors.alias && translate(errors.alias)} slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'role-form-alias' } }} />
        </Stack>
      </DialogContent>
      <DialogActions>
        {!view && <Button onClick={onClose}>{translate('common.cancel')}</Button>}
        <Button variant="contained" disabled={busy} onClick={() => void submit()} data-testid="role-form-submit">
          {translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function PermissionDialog({ role, onClose }: { role: RoleRow | null; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { data: tree } = useLoad<MenuNode[]>(ROLE_PATHS.tree, { id: role?.id }, !!role, []);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const all = flatten(tree);
  useEffect(() => {
    setChecked(new Set(flatten(tree).filter((n) => n.checked).map((n) => n.id)));
  }, [tree]);
  const save = async () => {
    if (!role) return;
    setBusy(true);
    const res = await request(ROLE_PATHS.setPermissions, { id: role.id, treeNodes: [...checked] });
    setBusy(false);
    if (res.ok) {
      notify(res.message || translate('sys.saved'), { type: 'success' });
      onClose();
    } else if (!res.announced) notify(res.message || translate('sys.failed'), { type: 'error' });
  };
  return (
    <Dialog open={!!role} onClose={onClose} maxWidth="md" fullWidth data-testid="role-permission-dialog">
      <DialogTitle>
        {translate('sys.role.permissionTitle')} · {role?.name}
      </DialogTitle>
      <DialogContent dividers sx={{ maxHeight: '65vh' }}>
        <MenuTree key={role?.id ?? 0} nodes={tree} checked={checked} onCheck={(n) => setChecked(toggleNode(all, checked, n))} testId="role-tree" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('common.cancel')}</Button>
        <Button variant="contained" disabled={busy} onClick={() => void save()} data-testid="role-permission-save">
          {translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default RolePage;
