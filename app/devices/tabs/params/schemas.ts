/**
 * JSON Schemas of the parameter forms, built at run time from the device-parameter rules the server and
 * the simulator use (contract/deviceParams.ts), with the labels of the current language.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import {
  CALIBRATION_DEFAULT, CALIBRATION_KEYS, PROTECTION_FLAG_KEYS, PROTECTION_VALUE_KEYS, THRESHOLD_DEFAULTS, THRESHOLD_RULES,
} from '../../../../contract/deviceParams';
import texts from '../shared/messages.json';

export const UINT32_MAX = 4294967295;

type Translate = (key: string, options?: Record<string, unknown>) => string;

const label = (translate: Translate, key: string) => translate(`deviceTab.params.fields.${key}`, { _: key });

/** The spec's rule: a parameter whose (Chinese) label contains 使能 is an enable flag, shown as a switch. */
export function isEnableFlag(key: string): boolean {
  const zh = (texts.deviceTab.params.fields as Record<string, (string | null)[]>)[key]?.[0] ?? '';
  return zh.includes('使能');
}

const THRESHOLD_ORDER = ['time', 'iMut', 'tHi', 'tMut', 'iHi', 'eMut', 'buad', 'protocl', 'onOff', 'alm', 'mode'] as const;
const LABELLED_CHOICES: Record<string, string> = { onOff: 'onOff', alm: 'alm', mode: 'mode' };

export function thresholdSchema(translate: Translate): { schema: RJSFSchema; uiSchema: UiSchema } {
  const properties: Record<string, RJSFSchema> = {};
  for (const key of THRESHOLD_ORDER) {
    const rule = THRESHOLD_RULES[key];
    const title = label(translate, key);
    if ('oneOf' in rule) {
      const choices = LABELLED_CHOICES[key];
      properties[key] = {
        type: 'integer',
        title,
        default: THRESHOLD_DEFAULTS[key],
        oneOf: rule.oneOf.map((v) => ({ const: v, title: choices ? translate(`deviceTab.params.options.${choices}.${v}`) : String(v) })),
      };
    } else {
      properties[key] = { type: 'integer', title, minimum: rule.min, maximum: rule.max, default: THRESHOLD_DEFAULTS[key] };
    }
  }
  return {
    schema: { type: 'object', required: [...THRESHOLD_ORDER], properties },
    uiSchema: { 'ui:order': [...THRESHOLD_ORDER] },
  };
}

const PROTECTIONS = ['iz', 'ov', 'uv', 'oi', 'op', 'oe', 'ot'];

/** Ratings, then each protection's levels and delay, then every enable flag in the same order (a block of switches). */
export const PROTECTION_ORDER: string[] = [
  'baud', 'Ue', 'Ie', 'Pe', 'Ee', 'Te',
  'iz', 'izt',
  ...PROTECTIONS.slice(1).flatMap((p) => [`${p}1`, `${p}2`, `${p}t`]),
  'v_unbalance', 'i_unbalance',
  ...PROTECTIONS.flatMap((p) => [`${p}_en`, `${p}_alm_en`]),
  'v_unbalance_en', 'i_unbalance_en', 'miss_phase_en', 'miss_phase_alarm_en',
];

export function protectionSchema(translate: Translate): { schema: RJSFSchema; uiSchema: UiSchema } {
  const known = new Set<string>([...PROTECTION_VALUE_KEYS, ...PROTECTION_FLAG_KEYS]);
  const order = PROTECTION_ORDER.filter((k) => known.has(k));
  const properties: Record<string, RJSFSchema> = {};
  const uiSchema: UiSchema = { 'ui:order': order };
  for (const key of order) {
    if (isEnableFlag(key)) {
      properties[key] = { type: 'integer', title: label(translate, key), enum: [0, 1] };
      uiSchema[key] = { 'ui:widget': 'enableSwitch' };
    } else {
      properties[key] = { type: 'integer', title: label(translate, key), minimum: 1, maximum: UINT32_MAX };
    }
  }
  return { schema: { type: 'object', required: order, properties }, uiSchema };
}

export function calibrationSchema(translate: Translate): { schema: RJSFSchema; uiSchema: UiSchema } {
  const properties: Record<string, RJSFSchema> = {};
  for (const key of CALIBRATION_KEYS) {
    properties[key] = { type: 'integer', title: `${label(translate, key)} (${key})`, minimum: 1, maximum: UINT32_MAX, default: CALIBRATION_DEFAULT };
  }
  return { schema: { type: 'object', required: [...CALIBRATION_KEYS], properties }, uiSchema: { 'ui:order': [...CALIBRATION_KEYS] } };
}

/** The keys whose values differ; unchanged forms are not sent (未发现改动,无需更新). */
export function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys(after).filter((k) => after[k] !== undefined && Number(after[k]) !== Number(before[k]));
}
