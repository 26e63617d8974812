/**
 * System users (spec 002 screen 4) and their tenant variant (spec 001 §2.7), both the generic list of
 * resources/user.resource.json. What the format cannot say is here: the password and its confirmation
 * in the form, the row buttons (detail drawer with basic info and assets, password reset, enable /
 * disable after a confirmation), and the toolbar's template, import and export. The tenant variant
 * (`actions` assets and toggle) only views and switches status.
 */
import { useState } from 'react';
import { Avatar, Box, Button, Chip, Divider, Drawer, IconButton, Tab, Tabs, TextField, Tooltip, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import DownloadIcon from '@mui/icons-material/Download';
import InfoIcon from '@mui/icons-material/Info';
import LockResetIcon from '@mui/icons-material/LockReset';
import { useRefresh, useTranslate } from 'react-admin';
import type { CallName } from '../../../adapters/dataProvider';
import { useCans } from '../../auth/useCan';
import { DetailFields, UserAssetsTab, imageUrl, useConfirmedCall } from '../../components';
import { SchemaList } from '../../components/SchemaList';
import { SheetImport } from '../../components/SheetImport';
import { useApi } from '../../components/calls';
import type { FieldError, FormValues } from '../../components/validate';
import type { ResourceConfig } from '../../resources/types';
import { CODES } from './api';

type Row = Record<string, unknown>;
const TENANT_STATUS = 'tenant:status';

/** Spec 002 §5: a password on add, at least 6 characters when given, and its confirmation equal. */
function passwordRules(values: FormValues): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  const password = String(values.fPassword ?? '');
  const editing = values.fId !== undefined && values.fId !== null && values.fId !== '';
  if (!editing && !password) errors.fPassword = { key: 'sys.user.passwordRequired' };
  else if (password && password.length < 6) errors.fPassword = { key: 'sys.user.passwordLength' };
  if (password && String(values.passwordCheck ?? '') !== password) errors.passwordCheck = { key: 'sys.user.mismatch' };
  return errors;
}

export function UserList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const { confirmCall, dialog } = useConfirmedCall();
  const api = useApi();
  const tenant = (config.list.actions ?? []).includes('toggle');
  const prefix = tenant ? 'tenant' : 'user';
  const { add: canAdd, edit: canEdit, export: canExport, tenantStatus: canTenantStatus } = useCans({ add: CODES.userAdd, edit: CODES.userEdit, export: CODES.userExport, tenantStatus: TENANT_STATUS });
  const canToggle = tenant ? canTenantStatus : canEdit;
  const [open, setOpen] = useState<Row | null>(null);

  /**
   * A confirmed call; the list reloads only when the server accepted it (spec 002 §8). `failed` words a
   * refusal (the status change's 用户状态修改失败, spec 001 §8), with the server's reason after it; the
   * server's notice (the password reset to its default) and its refusals read in the console's language.
   */
  const act = (question: string, name: CallName, body: Row, after?: () => void, failed?: string, done?: string) =>
    confirmCall(question, name, body, {
      done: ({ message }) => (done ? translate(done) : message || translate('sys.saved')),
      failed: ({ message }) => (failed ? translate(failed, { message }) : message),
      after: () => {
        after?.();
        refresh();
      },
    });

  const toggle = (row: Row) => {
    const enable = Number(row.fStatus) !== 1;
    const question = tenant ? (enable ? 'tenant.confirmEnable' : 'tenant.confirmDisable') : enable ? 'sys.user.confirmEnable' : 'sys.user.confirmDisable';
    act(translate(question), 'user.status', { fId: row.fId, fUserType: tenant ? 2 : 1, fStatus: enable ? 1 : 0 }, () => {
      if (open && open.fId === row.fId) setOpen({ ...open, fStatus: enable ? 1 : 0 });
    }, 'tenant.statusFailed', config.notifications.status);
  };

  const rowActions = (row: Row) => {
    const on = Number(row.fStatus) === 1;
    return (
      <>
        {tenant ? (
          <Button size="small" onClick={() => setOpen(row)} data-testid="tenant-view">
            {translate('common.view')}
          </Button>
        ) : (
          <Tooltip title={translate('sys.user.detail')}>
            <IconButton size="small" onClick={() => setOpen(row)} data-testid="user-detail" aria-label={translate('sys.user.detail')}>
              <InfoIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {canToggle && (
          <Button size="small" color={on ? 'error' : 'success'} onClick={() => toggle(row)} data-testid={`${prefix}-toggle`}>
            {translate(tenant ? (on ? 'tenant.disable' : 'tenant.enable') : on ? 'sys.user.disable' : 'sys.user.enable')}
          </Button>
        )}
        {!tenant && canEdit && (
          <Tooltip title={translate('sys.user.resetPwd')}>
            <IconButton size="small" onClick={() => act(translate('sys.user.confirmReset'), 'user.resetPassword', { fId: row.fId })} data-testid="user-reset-pwd" aria-label={translate('sys.user.resetPwd')}>
              <LockResetIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </>
    );
  };

  const toolbar = tenant
    ? undefined
    : (filter: Record<string, unknown>) => (
        <>
          {canAdd && <SheetImport ns="sys.user" template={{ call: 'sheet.userTemplate', fileName: '用户导入模板.xlsx' }} importCall="sheet.userImport" testId="user" />}
          {canExport && (
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              onClick={() => void api.submitForm('sheet.userExport', { json: JSON.stringify({ condition: filter }) })}
              data-testid="user-export"
            >
              {translate('sys.user.export')}
            </Button>
          )}
        </>
      );

  return (
    <>
      <SchemaList
        config={config}
        readOnly={tenant}
        view={!tenant}
        toolbar={toolbar}
        rowActions={rowActions}
        cells={{
          fStatus: (row) => (
            <Chip size="small" color={Number(row.fStatus) === 1 ? 'success' : 'default'} label={translate(`enums.userStatus.${Number(row.fStatus) === 1 ? 1 : 0}`)} data-testid={`${prefix}-status`} />
          ),
        }}
        form={{
          maxWidth: 'sm',
          extraKeys: ['fId', 'fPassword', 'passwordCheck'],
          validate: passwordRules,
          extra: ({ values, setValue, disabled, readOnly, editing, errors }) =>
            readOnly ? null : (
              <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
                {(['fPassword', 'passwordCheck'] as const).map((key) => (
                  <TextField
                    key={key}
                    type="password"
                    autoComplete="new-password"
                    margin="dense"
                    required={!editing}
                    disabled={disabled}
                    label={translate(key === 'fPassword' ? 'sys.user.password' : 'sys.user.passwordCheck')}
                    value={String(values[key] ?? '')}
                    onChange={(e) => setValue(key, e.target.value)}
                    error={Boolean(errors[key])}
                    helperText={errors[key] ?? (editing && key === 'fPassword' ? translate('sys.user.passwordHint') : undefined)}
                    slotProps={{ htmlInput: { 'data-testid': key === 'fPassword' ? 'user-form-password' : 'user-form-password-check' } }}
                  />
                ))}
              </Box>
            ),
        }}
      />
      <UserDrawer config={config} row={open} tenant={tenant} onClose={() => setOpen(null)} />
      {dialog}
    </>
  );
}

/** Basic info and the user's assets (the rooms of its places and their devices). */
/** The names of a user's regions or streets in charge, as the server answers them. */
const namesOf = (list: unknown, separator: string) => ((list ?? []) as { name: string }[]).map((n) => n.name).join(separator) || '-';

function UserDrawer({ config, row, tenant, onClose }: { config: ResourceConfig; row: Row | null; tenant: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const [tab, setTab] = useState(0);
  const [broken, setBroken] = useState(false);
  const prefix = tenant ? 'tenant' : 'user';
  const r = row ?? {};
  const pic = broken ? null : imageUrl(r.fPic as string);
  const lease = r.lease as { fAddress?: string } | null | undefined;
  // Phones and ID numbers masked by the one rule of every list, drawer and profile (the schema's x-mask,
  // spec 001 §2.12, §9): a staff account's phone too — the form's edit mode is where it is changed.
  const sources = tenant
    ? ['fId', 'fChineseName', 'fPhone', 'fIdcard', 'fGender', 'fStatus', 'fEmail', 'fWorkUnit', 'fWorkAddress', 'leaseName', 'fCreateTime', 'fLastloginDate']
    : ['fChineseName', 'fPhone', 'fAdmin', 'roleNames', 'fStatus', 'fExpireTime', 'fCreateTime', 'fLastloginDate'];
  const extra = tenant
    ? [{ label: translate('tenant.fields.leaseAddress'), value: lease?.fAddress ?? '-' }]
    : (['fAreaIds', 'streets'] as const).map((source) => ({ label: translate(config.fields[source].label), value: namesOf(r[source === 'fAreaIds' ? 'areaNames' : 'streetNames'], translate('common.listSeparator')) }));
  const close = () => {
    setTab(0);
    onClose();
  };
  return (
    <Drawer anchor="right" open={Boolean(row)} onClose={close} slotProps={{ paper: { sx: { width: { xs: '100%', md: 960 } } } }} data-testid={`${prefix}-drawer`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1.5 }}>
        <Avatar src={pic ?? undefined} slotProps={{ img: { onError: () => setBroken(true) } }} sx={{ width: 40, height: 40 }}>
          {String(r.fChineseName ?? '?').slice(0, 1)}
        </Avatar>
        <Typography variant="h6" sx={{ flex: 1 }}>
          {tenant ? translate('tenant.detail', { name: String(r.fChineseName ?? '-') }) : String(r.fChineseName ?? '')}
        </Typography>
        <IconButton onClick={close} aria-label={translate('common.close')}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} sx={{ px: 2 }}>
        <Tab label={translate('sys.user.basic')} data-testid={`${prefix}-tab-basic`} />
        <Tab label={translate('sys.user.assets')} data-testid={`${prefix}-tab-assets`} />
      </Tabs>
      <Box sx={{ p: 2, overflowY: 'auto' }}>
        {row && tab === 0 && (
          <Box data-testid={`${prefix}-basic`}>
            <DetailFields config={config} row={r} sources={sources} extra={extra} />
          </Box>
        )}
        {row && tab === 1 && <UserAssetsTab userId={Number(r.fId)} />}
      </Box>
    </Drawer>
  );
}

export default UserList;
