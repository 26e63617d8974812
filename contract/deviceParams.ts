/**
 * Device configuration the spec defines (shared by the console, the server and the simulator): gateway thresholds, breaker protection parameters and
 * calibration coefficients, with their defaults and ranges. The simulator enforces them and the server
 * can validate a form with the same rules before it sends anything.
 */
import type { Reason, ReasonCode } from './reasons';

export const DEVICE_TYPES = {
  1: '485 device',
  2: 'WiFi gateway',
  3: '4G device',
  4: '4G gateway',
  5: 'WiFi single product',
  6: 'plastic-case breaker',
} as const;

export type DeviceType = keyof typeof DEVICE_TYPES;

export function isGatewayType(type: number): boolean {
  return type === 2 || type === 4;
}

/** Batch time sync and threshold pushes apply to gateways and the plastic-case breaker only. */
export function hasThresholds(type: number): boolean {
  return type === 2 || type === 4 || type === 6;
}

// ---- gateway thresholds -------------------------------------------------------------------------

export interface Thresholds {
  time: number;
  iMut: number;
  tHi: number;
  tMut: number;
  onOff: number;
  iHi: number;
  buad: number;
  protocl: number;
  alm: number;
  eMut: number;
  mode: number;
}

export const THRESHOLD_DEFAULTS: Thresholds = {
  time: 3600,
  iMut: 10000,
  tHi: 70,
  tMut: 10,
  onOff: 1,
  iHi: 80,
  buad: 115200,
  protocl: 1,
  alm: 1,
  eMut: 1000,
  mode: 0,
};

type Rule = { min: number; max: number } | { oneOf: readonly number[] };

export const THRESHOLD_RULES: Record<keyof Thresholds, Rule> = {
  time: { min: 60, max: 65535 },
  iMut: { min: 500, max: 50000 },
  tHi: { min: 50, max: 150 },
  tMut: { min: 5, max: 10 },
  iHi: { min: 0, max: 80000 },
  eMut: { min: 0, max: 99999 },
  onOff: { oneOf: [0, 1] },
  buad: { oneOf: [300, 1200, 2400, 9600, 19200, 38400, 115200] },
  protocl: { min: 0, max: 6 },
  alm: { oneOf: [0, 1] },
  mode: { oneOf: [0, 1] },
};

/** A value's problem, by a code of the catalogue (schemas/reasons/devices.json) and its parameters. */
export type ParamProblem = Reason;

const problem = (code: ReasonCode, params: Record<string, string | number>): ParamProblem => ({ code, params });

function checkRule(key: string, value: unknown, rule: Rule): ParamProblem | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return problem('command.param.notInteger', { key });
  if ('oneOf' in rule) {
    if (!rule.oneOf.includes(value)) return problem('command.param.oneOf', { key, values: rule.oneOf.join('/') });
  } else if (value < rule.min || value > rule.max) {
    return problem('command.param.range', { key, min: rule.min, max: rule.max });
  }
  return undefined;
}

/** Problems with the threshold fields present in `input` (unknown keys are ignored). */
export function validateThresholds(input: Record<string, unknown>, { requireAll = false } = {}): ParamProblem[] {
  const problems: ParamProblem[] = [];
  for (const key of Object.keys(THRESHOLD_RULES) as (keyof Thresholds)[]) {
    if (!(key in input)) {
      if (requireAll) problems.push(problem('command.param.required', { key }));
      continue;
    }
    const p = checkRule(key, input[key], THRESHOLD_RULES[key]);
    if (p) problems.push(p);
  }
  return problems;
}

// ---- breaker calibration (codes 16-35) ----------------------------------------------------------

export const CALIBRATION_KEYS = [
  'va_k', 'vb_k', 'vc_k', 'ia_k', 'ib_k', 'ic_k', 'in_k', 'pa_k', 'pb_k', 'pc_k', 'pn_k',
  'ea_k', 'eb_k', 'ec_k', 'en_k', 'ta_k', 'tb_k', 'tc_k', 'tn_k',
] as const;

export type CalibrationKey = (typeof CALIBRATION_KEYS)[number];
export type Calibration = Record<CalibrationKey, number>;

/** 1000 means a coefficient of 1. */
export const CALIBRATION_DEFAULT = 1000;

export function defaultCalibration(): Calibration {
  return Object.fromEntries(CALIBRATION_KEYS.map((k) => [k, CALIBRATION_DEFAULT])) as Calibration;
}

// ---- breaker protection parameters (codes 48-95) ------------------------------------------------

/** Protections with alarm level (…1), trip level (…2), delay (…t) and enable flags. */
const PROTECTIONS = ['ov', 'uv', 'oi', 'op', 'oe', 'ot'] as const;

export const PROTECTION_FLAG_KEYS = [
  'iz_en', 'iz_alm_en',
  ...PROTECTIONS.flatMap((p) => [`${p}_en`, `${p}_alm_en`]),
  'v_unbalance_en', 'i_unbalance_en', 'miss_phase_en', 'miss_phase_alarm_en',
] as const;

export const PROTECTION_VALUE_KEYS = [
  'baud', 'iz', 'izt',
  ...PROTECTIONS.flatMap((p) => [`${p}1`, `${p}2`, `${p}t`]),
  'Ue', 'Ie', 'Pe', 'Ee', 'Te', 'v_unbalance', 'i_unbalance',
] as const;

export type Protection = Record<string, number>;

/**
 * Values from spec 000 §9. Where the spec is silent (delays, power, energy and temperature levels,
 * rated energy and temperature) the numbers are plausible choices of ours, noted in docs/mqtt.md.
 */
export function defaultProtection(): Protection {
  const values: Protection = {
    baud: 115200,
    iz: 30, // leakage, mA
    izt: 100, // ms
    ov1: 260000, ov2: 280000, ovt: 1000, // mV
    uv1: 180000, uv2: 160000, uvt: 1000, // mV
    oi1: 90000, oi2: 100000, oit: 1000, // mA
    op1: 17600, op2: 19800, opt: 1000, // W
    oe1: 100000, oe2: 120000, oet: 1000, // kWh
    ot1: 80, ot2: 95, ott: 1000, // °C
    Ue: 220000, // mV
    Ie: 80000, // mA
    Pe: 17600, // W
    Ee: 100000, // kWh
    Te: 70, // °C
    v_unbalance: 10, // %
    i_unbalance: 10, // %
  };
  for (const flag of PROTECTION_FLAG_KEYS) values[flag] = 1;
  return values;
}

const UINT32_MAX = 4294967295;

/** Values are integers 1..4294967295; enable flags (使能) are 0 or 1. Unknown keys are problems. */
export function validateProtection(input: Record<string, unknown>): ParamProblem[] {
  const problems: ParamProblem[] = [];
  const flags = new Set<string>(PROTECTION_FLAG_KEYS);
  const values = new Set<string>(PROTECTION_VALUE_KEYS);
  for (const [key, value] of Object.entries(input)) {
    if (flags.has(key)) {
      const p = checkRule(key, value, { oneOf: [0, 1] });
      if (p) problems.push(p);
    } else if (values.has(key)) {
      const p = checkRule(key, value, { min: 1, max: UINT32_MAX });
      if (p) problems.push(p);
    } else {
      problems.push(problem('command.param.unknown', { key }));
    }
  }
  return problems;
}

export function validateCalibration(input: Record<string, unknown>): ParamProblem[] {
  const problems: ParamProblem[] = [];
  const keys = new Set<string>(CALIBRATION_KEYS);
  for (const [key, value] of Object.entries(input)) {
    if (!keys.has(key)) problems.push(problem('command.param.unknownCoefficient', { key }));
    else {
      const p = checkRule(key, value, { min: 1, max: UINT32_MAX });
      if (p) problems.push(p);
    }
  }
  return problems;
}

/** Type-6 motor and gateway passwords: 1 to 4 characters (spec 000 §5). */
export const DEVICE_PASSWORD_DEFAULT = '1234';
export const DEVICE_PASSWORD_MAX = 4;
