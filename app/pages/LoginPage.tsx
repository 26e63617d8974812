/**
 * Login by mobile number and password, with "remember password" (30 days) and self-registration.
 */
import { Suspense, useEffect, useState } from 'react';
import { lazyChunk } from '../shell/chunks';
import type { FormEvent } from 'react';
import { useLogin, useNotify, useTranslate } from 'react-admin';
import { Box, Button, Checkbox, FormControlLabel, Paper, Stack, Typography } from '@mui/material';
import PhoneIphone from '@mui/icons-material/PhoneIphone';
import Lock from '@mui/icons-material/Lock';
import Hub from '@mui/icons-material/Hub';
import { getRememberedLogin, getStoredMenus } from '../../adapters/authProvider';
import { LanguageSwitch } from '../shell/LanguageSwitch';
import { useApiErrors } from '../shell/useApiErrors';
import { useErrorCapture } from '../administration/errorLog/capture';
import { PHONE_MAX_LENGTH } from '../shell/rules';
import { RuleField } from '../components/RuleField';

// Opened by few visitors: its code loads when asked for.
const RegisterDialog = lazyChunk(() => import('./RegisterDialog').then((m) => ({ default: m.RegisterDialog })));

export function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const remembered = getRememberedLogin();
  const [account, setAccount] = useState(remembered?.account ?? '');
  const [password, setPassword] = useState(remembered?.password ?? '');
  const [remember, setRemember] = useState(!!remembered);
  const [errors, setErrors] = useState<{ account?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);
  const [registering, setRegistering] = useState(false);
  useApiErrors();
  // A script error or a failed call before anyone signs in reaches the error log too.
  useErrorCapture();

  const appTitle = translate('app.title');
  useEffect(() => {
    document.title = appTitle;
  }, [appTitle]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      account: account.trim() ? undefined : 'login.accountRequired',
      password: password ? undefined : 'login.passwordRequired',
    };
    setErrors(found);
    if (found.account || found.password) return;
    setBusy(true);
    try {
      await login({ username: account.trim(), password, remember });
      if (getStoredMenus().length === 0) notify('shell.noPermission', { type: 'warning' });
    } catch (error) {
      const status = (error as { status?: number }).status;
      // 401 and 500 are announced by the global handler; a refusal (a wrong password, too many attempts)
      // is already in the console's language, by its code.
      if (status !== 401 && status !== 500) notify((error as Error)?.message || 'login.failed', { type: 'error' });
      setBusy(false);
    }
  };

  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        position: 'relative',
        p: 2,
        background: 'linear-gradient(135deg, #001529 0%, #0b3a6e 55%, #1677ff 100%)',
      }}
    >
      <Box sx={{ position: 'absolute', top: 16, right: 16 }}>
        <LanguageSwitch color="#fff" />
      </Box>
      <Paper
        component="form"
        onSubmit={submit}
        noValidate
        elevation={8}
        aria-labelledby="login-title"
        sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 }, borderRadius: 2 }}
      >
        <Stack spacing={1} sx={{ alignItems: 'center', mb: 3 }}>
          <Hub color="primary" sx={{ fontSize: 44 }} />
          <Typography id="login-title" component="h1" variant="h5" sx={{ textAlign: 'center', fontSize: 20 }}>
            {appTitle}
          </Typography>
          <Typography color="text.secondary" sx={{ fontSize: 13, textAlign: 'center' }}>
            {translate('app.subtitle')}
          </Typography>
        </Stack>
        <Stack spacing={1}>
          <RuleField
            label="login.phone"
            placeholder={translate('login.phonePlaceholder')}
            value={account}
            onChange={setAccount}
            error={errors.account}
            autoComplete="username"
            autoFocus
            fullWidth
            testId="login-phone"
            htmlInput={{ maxLength: PHONE_MAX_LENGTH, inputMode: 'tel' }}
            icon={<PhoneIphone fontSize="small" />}
          />
          <RuleField
            label="login.password"
            placeholder={translate('login.passwordPlaceholder')}
            type="password"
            value={password}
            onChange={setPassword}
            error={errors.password}
            autoComplete="current-password"
            fullWidth
            testId="login-password"
            icon={<Lock fontSize="small" />}
          />
        </Stack>
        <FormControlLabel
          sx={{ mt: -0.5, mb: 1.5 }}
          control={
            <Checkbox
              size="small"
              checked={remember}
              onChange={(e) => setRemember(e.target.checked)}
              slotProps={{ input: { 'data-testid': 'login-remember' } as object }}
            />
          }
          label={<Typography sx={{ fontSize: 14 }}>{translate('login.remember')}</Typography>}
        />
        <Stack spacing={1.5}>
          <Button type="submit" variant="contained" size="large" fullWidth disabled={busy} data-testid="login-submit">
            {translate('login.submit')}
          </Button>
          <Button variant="outlined" size="large" fullWidth onClick={() => setRegistering(true)} data-testid="login-register">
            {translate('login.register')}
          </Button>
        </Stack>
      </Paper>
      {registering && (
        <Suspense>
          <RegisterDialog open onClose={() => setRegistering(false)} />
        </Suspense>
      )}
    </Box>
  );
}

export default LoginPage;
