import { useCallback } from 'react';
import { envelopeText, ApiError } from '../../../../adapters/http';
import type { CallAnswer, CallBody, CallName, LegacyDataProvider } from '../../../../adapters/dataProvider';
import { useApi } from '../../../components/calls';
import type { ReasonCode } from '../../../../contract/reasons';
import type { DeviceRow } from '../../cells';

/** Product type of a device: its own fTypeId, else its product's fDeviceType. */
export function typeOf(device: DeviceRow): number | undefined {
  const own = device.fTypeId ?? (device.tProduct as Record<string, unknown> | undefined)?.fDeviceType;
  return own === undefined || own === null ? undefined : Number(own);
}

export const isGateway = (device: DeviceRow) => [2, 4].includes(typeOf(device) ?? 0);
export const hasThresholds = (device: DeviceRow) => [2, 4, 6].includes(typeOf(device) ?? 0);
export const isBreaker = (device: DeviceRow) => typeOf(device) === 6;

/** The device calls of the drawer's tabs, by name (resources/calls/device.json and command.json). */
export const CALLS = {
  elec: 'device.readings',
  commands: 'command.log',
  sendSwitch: 'command.switch',
  sendLock: 'command.lock',
  motor: 'command.motor6',
  threshold: 'command.thresholds',
  setThreshold: 'command.setThresholds',
  setParameter: 'command.setParameters',
  readProtection: 'command.readParameters',
  readCalibration: 'command.readCalibration',
  shares: 'device.shares',
  shareDel: 'device.unshare',
  shareMore: 'device.share',
  records: 'device.messages',
} satisfies Record<string, CallName>;

/** The type-6 breaker's own calls (spec 000 §7, the device6 family), which the server answers only for type 6. */
const BREAKER_CALLS = {
  elec: 'device.readings6',
  setThreshold: 'command.setThresholds6',
} as const satisfies Partial<Record<keyof typeof CALLS, CallName>>;

/** The drawer's calls: each the ordinary device's, or the breaker's own where it has one. */
export type DeviceCalls = { [K in keyof typeof CALLS]: (typeof CALLS)[K] | (K extends keyof typeof BREAKER_CALLS ? (typeof BREAKER_CALLS)[K] : never) };

/** The drawer's calls for this device: the breaker's own where it has them. */
export const callsFor = (device: DeviceRow): DeviceCalls => (isBreaker(device) ? { ...CALLS, ...BREAKER_CALLS } : CALLS);

export interface SendResult<T = unknown> {
  ok: boolean;
  /** What the server answered, in the console's language (its reason by code). */
  message: string;
  /** The refusal's or notice's code, for a page that acts on one. */
  code?: ReasonCode;
  data?: T;
  /** Set when the shell already announced the failure (expired login, no permission, server fault). */
  announced?: boolean;
}

/** A set-call by name, answering what its declaration says. */
export type Send = <N extends CallName>(name: N, body: CallBody<N>) => Promise<SendResult<CallAnswer<N>>>;

/** `send` through the console's data provider (react-admin's). */
export function useSend(): Send {
  const api = useApi();
  return useCallback<Send>((name, body) => send(api, name, body), [api]);
}

/** A set-call: how the device answered, worded by the answer's reason in the console's language. Never throws. */
export async function send<N extends CallName>(api: LegacyDataProvider, name: N, body: CallBody<N>): Promise<SendResult<CallAnswer<N>>> {
  try {
    const envelope = await api.call(name, body, { raw: true });
    // react-admin answers without the envelope when the failure logged the user out (announced).
    if (typeof envelope?.code !== 'number') return { ok: false, message: '', announced: true };
    const ok = envelope.success !== false && envelope.code === 200;
    return { ok, message: envelopeText(envelope), code: envelope.reason?.code, data: envelope.data };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e), code: e instanceof ApiError ? e.code : undefined, announced: e instanceof ApiError && e.status !== 200 };
  }
}
