import { useCallback, useEffect, useMemo, useState } from 'react';
import { Box, Button, Divider, IconButton, LinearProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/EditOutlined';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useNotify, useTranslate } from 'react-admin';
import { useCans } from '../../auth/useCan';
import { useConfirm } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { useRequest } from '../../components/calls';
import { useToggleSet } from '../../components/useToggleSet';
import type { ResourceConfig } from '../../resources/types';
import { validateField } from '../../components/validate';
import { ancestorsOf, fieldOf, findNode, type CodeTreeCalls, type TreeNode } from './api';

export interface TreeField {
  key: string;
  /** i18n key of the label. */
  label: string;
  /** The number the user gives: required, digits only, fixed once saved. */
  code?: boolean;
  required?: boolean;
  maxLength?: number;
}

export interface CodeTreeSettings {
  /** i18n namespace of the page texts, also the prefix of its data-testids. */
  ns: string;
  calls: CodeTreeCalls;
  codeField: string;
  parentField: string;
  fields: TreeField[];
  codes: { list: string; addTop: string; addChild: string; edit: string; del: string };
}

/**
 * A code tree's page, the numbered nodes of an entity (the regions, the departments): the node's number
 * and name first, then `more` fields; `permission`'s codes (`area:list`, `area:add`, …) gate its
 * buttons, the add code both the top-level and the child add.
 */
export function codeTreePage({ ns, permission, calls, fields, more = [] }: Pick<CodeTreeSettings, 'ns' | 'calls'> & { permission: string; fields: { code: string; parent: string; name: string }; more?: TreeField[] }) {
  const settings: CodeTreeSettings = {
    ns,
    calls,
    codeField: fields.code,
    parentField: fields.parent,
    fields: [{ key: fields.code, label: 'number', code: true }, { key: fields.name, label: 'name', required: true, maxLength: 100 }, ...more],
    codes: { list: `${permission}:list`, addTop: `${permission}:add`, addChild: `${permission}:add`, edit: `${permission}:edit`, del: `${permission}:del` },
  };
  return function TreePage({ config }: { config: ResourceConfig }) {
    return <CodeTreePage settings={settings} config={config} />;
  };
}

type Mode = 'none' | 'view' | 'edit' | 'addChild' | 'addTop';
type Values = Record<string, string>;

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * A tree on the left and the selected node's form on the right (spec 002 §2 screens 7 and 8, §4): view a
 * node, edit it, add a child under it or a node at the top, delete a leaf. After a save the tree reloads
 * with the saved node selected and its parents expanded; cancel goes back to the node being viewed.
 */
export function CodeTreePage({ settings, config }: { settings: CodeTreeSettings; config: ResourceConfig }) {
  const { ns, calls, codeField, parentField, fields, codes } = settings;
  const translate = useTranslate();
  const request = useRequest();
  const notify = useNotify();
  const t = (key: string, options?: object) => translate(`${ns}.${key}`, options);
  const { list: canList, addTop: canAddTop, addChild: canAddChild, edit: canEdit, del: canDelete } = useCans(codes);
  const { ask, dialog } = useConfirm();
  const [tree, setTree] = useState<TreeNode[]>([]);
  const [loading, setLoading] = useState(false);
  const [expanded, toggle, setExpanded] = useToggleSet<number>();
  const [selected, setSelected] = useState<number | null>(null);
  const [mode, setMode] = useState<Mode>('none');
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const node = useMemo(() => (selected === null ? undefined : findNode(tree, selected)), [tree, selected]);

  const show = useCallback(
    (n: TreeNode | undefined) => {
      setErrors({});
      if (!n) {
        setMode('none');
        setValues({});
        return;
      }
      setMode('view');
      setValues(Object.fromEntries([...fields.map((f) => [f.key, text(fieldOf(n, f.key))]), [parentField, text(n.parentId)]]));
    },
    [fields, parentField],
  );

  const load = useCallback(
    async (select?: number) => {
      if (!canList) return;
      setLoading(true);
      const res = await request(calls.tree, {});
      setLoading(false);
      if (!res.ok || !res.data) return;
      const nodes = res.data;
      setTree(nodes);
      if (select !== undefined) {
        // The saved node shows, selected, with every parent open.
        setExpanded((s) => new Set([...s, ...ancestorsOf(nodes, select)]));
        setSelected(select);
        show(findNode(nodes, select));
      } else {
        // First load: the top level opens so the tree is not a single closed line.
        setExpanded((s) => (s.size ? s : new Set(nodes.map((n) => n.id))));
      }
    },
    [canList, calls.tree, show, request],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const pick = (n: TreeNode) => {
    setSelected(n.id);
    show(n);
  };

  const startAdd = (kind: 'addChild' | 'addTop') => {
    setErrors({});
    setMode(kind);
    setValues({ ...Object.fromEntries(fields.map((f) => [f.key, ''])), [parentField]: kind === 'addChild' && node ? String(node.id) : '0' });
  };
  const startEdit = () => {
    if (!node) return;
    show(node);
    setMode('edit');
  };
  const cancel = () => show(node);

  const validate = (): boolean => {
    const found: Record<string, string> = {};
    for (const f of fields) {
      const v = (values[f.key] ?? '').trim();
      // The number by the schema's own rules and words (required, a whole number, above 0): what the
      // server would answer, in the console's language.
      const wrong = f.code ? validateField({ ...config.fields[f.key], required: true }, v) : null;
      if (wrong) found[f.key] = translate(wrong.key, { ...wrong.args, label: wrong.args?.labelKey ? translate(String(wrong.args.labelKey)) : '' });
      else if (f.required && !v) found[f.key] = t(`messages.${f.key}Required`);
      // A new node's number may not be one the tree holds: saving it would rename and move that node.
      else if (f.code && mode !== 'edit' && findNode(tree, Number(v))) found[f.key] = t(`messages.${f.key}Taken`);
      else if (f.maxLength && v.length > f.maxLength) found[f.key] = t('messages.tooLong', { max: f.maxLength });
    }
    setErrors(found);
    return !Object.keys(found).length;
  };

  const confirm = async () => {
    if (!validate()) return;
    const body: Record<string, unknown> = { [parentField]: Number(values[parentField] || 0) };
    for (const f of fields) body[f.key] = f.code ? Number(values[f.key]) : (values[f.key] ?? '').trim();
    if (mode === 'edit' && node?.fId !== undefined) body.fId = node.fId;
    // Marked as an add, so the server refuses a number that is taken instead of updating its node.
    else body.isAdd = true;
    setSaving(true);
    const res = await request(calls.save, body);
    setSaving(false);
    if (res.ok) {
      notify(t('saved'), { type: 'success' });
      const saved: Record<string, unknown> = { ...res.data };
      await load(Number(saved[codeField] ?? body[codeField]));
    } else if (!res.announced) notify(res.message || t('saveFailed'), { type: 'error' });
  };

  const remove = () => {
    if (!node) return;
    if (node.children?.length) {
      notify(t('messages.hasChildren'), { type: 'warning' });
      return;
    }
    ask(t('confirmDelete'), async () => {
      const res = await request(calls.delete, { [codeField]: node.id });
      if (res.ok) {
        notify(t('deleted'), { type: 'success' });
        setSelected(null);
        show(undefined);
        await load();
      } else if (!res.announced) notify(res.message, { type: 'error' });
    });
  };

  const renderNodes = (nodes: TreeNode[], depth: number) =>
    nodes.map((n) => {
      const open = expanded.has(n.id);
      const active = selected === n.id;
      return (
        <Box key={n.id}>
          <Box
            data-testid={`${ns}-node-${n.id}`}
            aria-selected={active}
            onClick={() => pick(n)}
            sx={{
              display: 'flex', alignItems: 'center', pl: depth * 2, pr: 1, py: 0.25, cursor: 'pointer', borderRadius: 1,
              bgcolor: active ? 'action.selected' : undefined, '&:hover': { bgcolor: active ? 'action.selected' : 'action.hover' },
            }}
          >
            {n.children?.length ? (
              <IconButton
                size="small"
                onClick={(e) => {
                  e.stopPropagation();
                  toggle(n.id);
                }}
                aria-label={open ? t('collapse') : t('expand')}
                data-testid={`${ns}-toggle-${n.id}`}
              >
                {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
              </IconButton>
            ) : (
              <Box sx={{ width: 34, flexShrink: 0 }} />
            )}
            <Typography variant="body2" noWrap sx={{ fontWeight: active ? 600 : 400 }}>
              {n.title}
            </Typography>
          </Box>
          {open && !!n.children?.length && renderNodes(n.children, depth + 1)}
        </Box>
      );
    });

  const editing = mode === 'edit' || mode === 'addChild' || mode === 'addTop';
  const parentName = (() => {
    const id = Number(values[parentField] || 0);
    if (!id) return t('top');
    return findNode(tree, id)?.title ?? String(id);
  })();
  const heading = { none: t('title'), view: t('viewTitle'), edit: t('editTitle'), addChild: t('addChildTitle'), addTop: t('addTopTitle') }[mode];

  return (
    <Box sx={{ p: { xs: 1, md: 2 }, display: 'flex', gap: 2, flexDirection: { xs: 'column', md: 'row' }, alignItems: 'stretch' }} data-testid={`${ns}-page`}>
      <Paper variant="outlined" sx={{ width: { xs: '100%', md: 320 }, flexShrink: 0, display: 'flex', flexDirection: 'column', minHeight: 420 }}>
        <Box sx={{ px: 2, py: 1.5, display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {t('treeTitle')}
          </Typography>
          {canAddTop && (
            <Button size="small" startIcon={<AddIcon />} onClick={() => startAdd('addTop')} disabled={saving} data-testid={`${ns}-add-top`}>
              {t('addTop')}
            </Button>
          )}
        </Box>
        <Divider />
        {loading && <LinearProgress />}
        <Box sx={{ p: 1, overflow: 'auto', flex: 1 }} data-testid={`${ns}-tree`} role="tree">
          {tree.length ? renderNodes(tree, 0) : !loading && <EmptyState message={t('empty')} />}
        </Box>
      </Paper>

      <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, p: 2 }} data-testid={`${ns}-detail`} data-mode={mode}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, mb: 2 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid={`${ns}-mode`}>
            {heading}
          </Typography>
          {mode === 'view' && (
            <Stack direction="row" spacing={1}>
              {canAddChild && (
                <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={() => startAdd('addChild')} data-testid={`${ns}-add-child`}>
                  {t('addChild')}
                </Button>
              )}
              {canEdit && (
                <Button size="small" variant="outlined" startIcon={<EditIcon />} onClick={startEdit} data-testid={`${ns}-edit`}>
                  {t('edit')}
                </Button>
              )}
              {canDelete && (
                <Button size="small" variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={remove} data-testid={`${ns}-delete`}>
                  {t('delete')}
                </Button>
              )}
            </Stack>
          )}
        </Stack>

        {mode === 'none' ? (
          <EmptyState message={t('pick')} />
        ) : (
          <Stack spacing={2} sx={{ maxWidth: 520 }}>
            <TextField size="small" label={t('parent')} value={parentName} slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': `${ns}-field-parent` } }} />
            {fields.map((f) => (
              <TextField
                key={f.key}
                size="small"
                label={t(f.label)}
                required={(f.required || f.code) && editing}
                value={values[f.key] ?? ''}
                onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
                disabled={mode === 'edit' && f.code}
                error={!!errors[f.key]}
                helperText={errors[f.key] || (editing && mode !== 'edit' && f.code ? t('codeHint') : undefined)}
                slotProps={{
                  input: { readOnly: !editing },
                  htmlInput: { 'data-testid': `${ns}-field-${f.key}`, inputMode: f.code ? 'numeric' : undefined, maxLength: f.maxLength },
                }}
              />
            ))}
            {editing && (
              <Stack direction="row" spacing={1}>
                <Button variant="contained" startIcon={<CheckIcon />} onClick={() => void confirm()} disabled={saving} data-testid={`${ns}-confirm`}>
                  {translate('common.confirm')}
                </Button>
                <Button startIcon={<CloseIcon />} onClick={cancel} disabled={saving} data-testid={`${ns}-cancel`}>
                  {translate('common.cancel')}
                </Button>
              </Stack>
            )}
          </Stack>
        )}
      </Paper>
      {dialog}
    </Box>
  );
}
