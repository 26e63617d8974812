/**
 * The product command panels: one inner tab per send library of the device's product, each a form
 * built from the library's fields, sent to the device through /api/emq/send; a library with a query
 * library reads the device's current values into its form.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Box, Button, Chip, FormControlLabel, LinearProgress, Stack, Switch, Tab, Tabs, Tooltip, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import Form from '@rjsf/mui';
import type { RJSFValidationError, RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError, envelopeText } from '../../../../adapters/http';
import { useApi } from '../../../components/calls';
import { EmptyState } from '../../../components/EmptyState';
import type { DeviceTabProps } from '../../DeviceDrawer';
import { flatValidator, ignoreReported } from '../../../components/formValidator';
import { buildForm, defaultValues, toProductJson, visibleFields, withReported, type CommandLibrary, type FormValues } from './schema';


/** A switch between a field's open and close values; the form holds true for open. */
function SwitchWidget({ id, value, disabled, readonly, label, onChange, options }: WidgetProps) {
  const translate = useTranslate();
  const open = options.openValue as string | undefined;
  const close = options.closeValue as string | undefined;
  const on = value === true;
  const state = open !== undefined ? `${on ? translate('deviceCommands.on') : translate('deviceCommands.off')} (${on ? open : close})` : '';
  return (
    <FormControlLabel
      control={<Switch id={id} checked={on} disabled={disabled || readonly} onChange={(_e, checked) => onChange(checked)} slotProps={{ input: { 'aria-label': label } }} />}
      label={
        <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'baseline' }}>
          <span>{label}</span>
          {state && (
            <Typography component="span" variant="caption" color="text.secondary">
              {state}
            </Typography>
          )}
        </Box>
      }
      data-testid={`command-switch-${id.replace(/^[^_]+_/, '')}`}
    />
  );
}

const widgets: RegistryWidgetsType = { switch: SwitchWidget };

type Outcome = { ok: boolean; text: string } | null;

function LibraryPanel({ library, deviceId }: { library: CommandLibrary; deviceId: number }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const { schema, uiSchema } = useMemo(
    () => buildForm(library, { listHint: translate('deviceCommands.listHint'), jsonHint: translate('deviceCommands.jsonHint') }),
    [library, translate],
  );
  const [values, setValues] = useState<FormValues>(() => defaultValues(library));
  const [busy, setBusy] = useState<'send' | 'query' | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const hasFields = visibleFields(library).length > 0;

  const run = async (isSearch: boolean, formValues: FormValues) => {
    if (busy) return;
    setBusy(isSearch ? 'query' : 'send');
    try {
      const answer = await api.call('command.raw', { productJson: toProductJson(library, formValues), gateWayId: deviceId, isSearch }, { raw: true });
      if (answer.success) {
        setValues((current) => withReported(library, current, answer.data?.productJson));
        // The server's notice (command.sent) in the console's language; a backend without one gets the console's own.
        const text = answer.reason ? envelopeText(answer) : translate('deviceCommands.sent', { name: library.fName });
        setOutcome({ ok: true, text });
        notify(text, { type: 'success' });
      } else {
        const text = envelopeText(answer);
        setOutcome({ ok: false, text });
        notify(text, { type: 'warning' });
      }
    } catch (error) {
      // Expired logins, missing permissions and server faults are announced by the shell.
      if (error instanceof ApiError && error.status !== 200 && error.status !== 0) setOutcome(null);
      else setOutcome({ ok: false, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(null);
    }
  };

  const transformErrors = (errors: RJSFValidationError[]) =>
    errors.map((e) => {
      const key = (e.property ?? '').replace(/^\./, '');
      const name = visibleFields(library).find((f) => f.fJsonKey === key)?.fJsonName ?? key;
      const rule = e.name === 'type' && e.params?.type === 'integer' ? 'integer' : e.name === 'type' && e.params?.type === 'number' ? 'number' : 'invalid';
      return { ...e, message: translate(`deviceCommands.errors.${rule}`, { name }) };
    });

  return (
    <Box data-testid={`command-panel-${library.fBid}`}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {library.fName}
        </Typography>
        <Chip size="small" variant="outlined" label={`${translate('deviceCommands.bid')}: ${library.fBid}`} />
        {library.fDes && (
          <Typography variant="body2" color="text.secondary" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {library.fDes}
          </Typography>
        )}
      </Stack>
      {!hasFields && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('deviceCommands.noFields')}
        </Typography>
      )}
      <Form
        schema={schema}
        uiSchema={uiSchema}
        formData={values}
        validator={flatValidator}
        widgets={widgets}
        noHtml5Validate
        showErrorList={false}
        // The messages stand under their fields; without a handler rjsf logs every refused send as a console error.
        onError={ignoreReported}
        transformErrors={transformErrors}
        disabled={busy !== null}
        onChange={(e) => setValues((e.formData ?? {}) as FormValues)}
        onSubmit={(e) => void run(false, (e.formData ?? {}) as FormValues)}
        idPrefix={`cmd${library.fId}`}
      >
        <Stack direction="row" spacing={1} sx={{ mt: hasFields ? 1 : 0, alignItems: 'center' }}>
          <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={busy !== null} data-testid="command-send">
            {translate('deviceCommands.send')}
          </Button>
          {library.fSearchJsonId && (
            <Tooltip title={translate('deviceCommands.queryHint')}>
              <span>
                <Button variant="outlined" startIcon={<SearchIcon />} disabled={busy !== null} onClick={() => void run(true, values)} data-testid="command-query">
                  {translate('deviceCommands.query')}
                </Button>
              </span>
            </Tooltip>
          )}
          {hasFields && (
            <Button startIcon={<RestartAltIcon />} disabled={busy !== null} onClick={() => setValues(defaultValues(library))} data-testid="command-reset">
              {translate('deviceCommands.reset')}
            </Button>
          )}
        </Stack>
      </Form>
      <Box sx={{ height: 4, mt: 1 }}>{busy && <LinearProgress />}</Box>
      {outcome && (
        <Alert severity={outcome.ok ? 'success' : 'warning'} sx={{ mt: 1 }} onClose={() => setOutcome(null)} data-testid="command-result">
          {outcome.text}
        </Alert>
      )}
    </Box>
  );
}

/** The panels of one device: its product's send libraries, loaded from the server each time the tab opens. */
export default function CommandPanels({ device }: DeviceTabProps) {
  const translate = useTranslate();
  const api = useApi();
  const [libraries, setLibraries] = useState<CommandLibrary[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [current, setCurrent] = useState(0);

  useEffect(() => {
    let alive = true;
    setLibraries(null);
    setFailure(null);
    setCurrent(0);
    api
      .call('command.panel', { fId: device.fId, fIsApp: 0, fReload: 0 })
      .then((answer) => alive && setLibraries(answer.data ?? []))
      .catch((error: unknown) => {
        if (!alive) return;
        setLibraries([]);
        if (!(error instanceof ApiError) || error.status === 200) setFailure(error instanceof Error ? error.message : String(error));
      });
    return () => {
      alive = false;
    };
  }, [device.fId]);

  if (libraries === null) return <LinearProgress />;
  if (failure) return <Alert severity="error">{translate('deviceCommands.loadFailed', { message: failure })}</Alert>;
  if (!libraries.length) return <EmptyState message={translate('deviceCommands.none')} />;
  const library = libraries[Math.min(current, libraries.length - 1)];
  return (
    <Box data-testid="device-commands">
      <Tabs value={Math.min(current, libraries.length - 1)} onChange={(_e, v: number) => setCurrent(v)} variant="scrollable" sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}>
        {libraries.map((l, i) => (
          <Tab key={l.fId} value={i} label={l.fName} data-testid={`command-lib-${l.fBid}`} />
        ))}
      </Tabs>
      <LibraryPanel key={`${device.fId}-${library.fId}`} library={library} deviceId={device.fId} />
    </Box>
  );
}
