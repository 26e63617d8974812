import { useEffect, useState } from 'react';
import { Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useNotify, useTranslate } from 'react-admin';
import { useCan } from '../../auth/useCan';
import { useConfirm } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { useCallQuery, useRequest } from '../../components/calls';
import { CODES, type MenuNode } from './api';
import { flatten, MenuTree } from './MenuTree';

const NO_NODES: MenuNode[] = [];

type Mode = 'view' | 'edit' | 'child' | 'top';
interface Draft {
  id?: number;
  parentId: number;
  menuName: string;
  fPermissionType: MenuNode['fPermissionType'];
  permissions: string;
  menuUri: string;
  icon: string;
  component: string;
  sort: string;
}
const blank = (parentId: number): Draft => ({ parentId, menuName: '', fPermissionType: 1, permissions: '', menuUri: '', icon: '', component: '', sort: '0' });
const draftOf = (n: MenuNode): Draft => ({ id: n.id, parentId: n.parentId, menuName: n.menuName, fPermissionType: n.fPermissionType, permissions: n.permissions, menuUri: n.menuUri ?? '', icon: n.icon ?? '', component: n.component ?? '', sort: String(n.sort) });

/** Spec 002 §5: the menu form's rules; a permission (type 2) has no address or icon. */
function validate(d: Draft): Partial<Record<keyof Draft, string>> {
  const e: Partial<Record<keyof Draft, string>> = {};
  if (!d.menuName.trim()) e.menuName = 'sys.menu.nameRequired';
  if (!d.permissions.trim()) e.permissions = 'sys.menu.permissionsRequired';
  if (d.fPermissionType === 1 && !d.menuUri.trim()) e.menuUri = 'sys.menu.menuUriRequired';
  if (d.fPermissionType === 1 && !d.icon.trim()) e.icon = 'sys.menu.iconRequired';
  if (!d.sort.trim()) e.sort = 'sys.menu.sortRequired';
  return e;
}

/** Spec 002 screen 6: the menu and permission tree, and a form to view, edit, add a child or a top level, or delete. */
export function MenuPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { ask, dialog } = useConfirm();
  const canList = useCan(CODES.menuList);
  const canAdd = useCan(CODES.menuAdd);
  const canEdit = useCan(CODES.menuEdit);
  const canDel = useCan(CODES.menuDel);
  const request = useRequest();
  const { data, reload } = useCallQuery('menu.list', {}, { enabled: canList });
  const tree: MenuNode[] = data ?? NO_NODES;
  const all = flatten(tree);
  const [selected, setSelected] = useState<number | null>(null);
  const [mode, setMode] = useState<Mode>('view');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const [busy, setBusy] = useState(false);
  const node = all.find((n) => n.id === selected) ?? null;

  useEffect(() => {
    if (mode === 'view') setDraft(node ? draftOf(node) : null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected, tree, mode]);

  const start = (m: Mode) => {
    setErrors({});
    setMode(m);
    if (m === 'edit' && node) setDraft(draftOf(node));
    if (m === 'child' && node) setDraft(blank(node.id));
    if (m === 'top') setDraft(blank(0));
  };

  const save = async () => {
    if (!draft) return;
    const e = validate(draft);
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    const res = await request('menu.save', { ...draft, sort: Number(draft.sort) });
    setBusy(false);
    if (res.ok) {
      notify(translate('sys.saved'), { type: 'success' });
      setMode('view');
      if (res.data) setSelected(res.data.id);
      reload();
    } else if (!res.announced) notify(res.message || translate('sys.failed'), { type: 'error' });
  };

  const remove = () => {
    if (!node) return;
    if (node.children?.length) return notify(translate('sys.menu.hasChildren'), { type: 'warning' });
    ask(translate('sys.menu.confirmDelete'), async () => {
      const res = await request('menu.delete', { id: node.id });
      if (res.ok) {
        notify(translate('sys.saved'), { type: 'success' });
        setSelected(null);
        reload();
      } else if (!res.announced) notify(res.message || translate('sys.failed'), { type: 'error' });
    });
  };

  if (!canList) return <EmptyState />;
  const readOnly = mode === 'view';
  const set = (k: keyof Draft) => (v: string | number) => setDraft((d) => (d ? { ...d, [k]: v } : d));
  const err = (k: keyof Draft) => (errors[k] ? translate(errors[k]!) : undefined);
  const parentName = draft ? (draft.parentId ? all.find((n) => n.id === draft.parentId)?.menuName ?? String(draft.parentId) : translate('sys.menu.top')) : '';
  const title = { view: 'sys.menu.viewTitle', edit: 'sys.menu.editTitle', child: 'sys.menu.addChildTitle', top: 'sys.menu.addTopTitle' }[mode];

  return (
    <Box data-testid="sys-menu-page" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'minmax(420px, 3fr) 2fr' }, gap: 2, alignItems: 'start' }}>
      <Paper variant="outlined" sx={{ p: 1.5 }}>
        <Stack direction="row" sx={{ alignItems: 'center', mb: 1, px: 1 }}>
          <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
            {translate('sys.menu.tree')}
          </Typography>
          {canAdd && (
            <Button size="small" variant="contained" startIcon={<AddIcon />} onClick={() => start('top')} data-testid="menu-add-top">
              {translate('sys.menu.addTop')}
            </Button>
          )}
        </Stack>
        <Box sx={{ maxHeight: 'calc(100vh - 220px)', overflow: 'auto' }}>
          <MenuTree nodes={tree} selected={selected} onSelect={(n) => (setSelected(n.id), setMode('view'), setErrors({}))} testId="menu-tree" />
        </Box>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2, position: { md: 'sticky' }, top: 0 }} data-testid="menu-form">
        <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 2 }}>
          {translate(title)}
        </Typography>
        {!draft ? (
          <EmptyState message={translate('sys.menu.selectNode')} />
        ) : (
          <Stack spacing={2}>
            <TextField size="small" label={translate('sys.menu.parent')} value={parentName} disabled />
            <TextField select size="small" required label={translate('sys.menu.type')} value={draft.fPermissionType} disabled={readOnly} onChange={(e) => set('fPermissionType')(Number(e.target.value))} slotProps={{ htmlInput: { 'data-testid': 'menu-form-type' } }}>
              <MenuItem value={1}>{translate('sys.menu.typeMenu')}</MenuItem>
              <MenuItem value={2}>{translate('sys.menu.typePermission')}</MenuItem>
            </TextField>
            <TextField size="small" required label={translate('sys.menu.menuName')} value={draft.menuName} disabled={readOnly} onChange={(e) => set('menuName')(e.target.value)} error={!!errors.menuName} helperText={err('menuName')} slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'menu-form-name' } }} />
            <TextField size="small" required label={translate('sys.menu.permissions')} value={draft.permissions} disabled={readOnly} onChange={(e) => set('permissions')(e.target.value)} error={!!errors.permissions} helperText={err('permissions')} slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'menu-form-permissions' } }} />
            {draft.fPermissionType === 1 && (
              <>
                <TextField size="small" required label={translate('sys.menu.menuUri')} value={draft.menuUri} disabled={readOnly} onChange={(e) => set('menuUri')(e.target.value)} error={!!errors.menuUri} helperText={err('menuUri')} slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'menu-form-uri' } }} />
                <TextField size="small" required label={translate('sys.menu.icon')} value={draft.icon} disabled={readOnly} onChange={(e) => set('icon')(e.target.value)} error={!!errors.icon} helperText={err('icon')} slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'menu-form-icon' } }} />
                <TextField size="small" label={translate('sys.menu.component')} value={draft.component} disabled={readOnly} onChange={(e) => set('component')(e.target.value)} slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'menu-form-component' } }} />
              </>
            )}
            <TextField size="small" required type="number" label={translate('sys.menu.sort')} value={draft.sort} disabled={readOnly} onChange={(e) => set('sort')(e.target.value)} error={!!errors.sort} helperText={err('sort')} slotProps={{ htmlInput: { 'data-testid': 'menu-form-sort' } }} />
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
              {readOnly ? (
                <>
                  {canEdit && node && (
                    <Button variant="contained" onClick={() => start('edit')} data-testid="menu-edit">
                      {translate('common.edit')}
                    </Button>
                  )}
                  {canAdd && node && (
                    <Button variant="outlined" onClick={() => start('child')} data-testid="menu-add-child">
                      {translate('sys.menu.addChild')}
                    </Button>
                  )}
                  {canDel && node && (
                    <Button variant="outlined" color="error" onClick={remove} data-testid="menu-delete">
                      {translate('common.delete')}
                    </Button>
                  )}
                </>
              ) : (
                <>
                  <Button variant="contained" disabled={busy} onClick={() => void save()} data-testid="menu-form-submit">
                    {translate('common.confirm')}
                  </Button>
                  <Button onClick={() => (setMode('view'), setErrors({}))} data-testid="menu-form-cancel">
                    {translate('common.cancel')}
                  </Button>
                </>
              )}
            </Stack>
          </Stack>
        )}
      </Paper>
      {dialog}
    </Box>
  );
}

export default MenuPage;
