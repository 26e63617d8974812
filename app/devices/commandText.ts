/**
 * The server words its device-command answers as the specification does, in Chinese ("分闸命令发送成功",
 * "点击太频繁，休息一下", "DEV000017: 设备离线" in a batch's lines). The console shows them in its own
 * language: an answer it knows is read back to its catalogue key, any other text (a device's own words)
 * is shown as it came.
 */
import { useTranslate } from 'react-admin';
import texts from './tabs/commands/messages';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const zh = texts['zh-CN'].deviceCommands;
/** The fixed part of a success, after the command's name. */
const SENT_SUFFIX = zh.sent.replace('%{name}', '');
const keysOf = (section: Record<string, string>, prefix: string) => new Map(Object.entries(section).map(([key, text]) => [text, `${prefix}.${key}`]));
const REFUSALS = keysOf(zh.refusals, 'deviceCommands.refusals');
const NAMES = keysOf(zh.names, 'deviceCommands.names');
/** A batch answers one line per device, "<device number>: <answer>". */
const DEVICE_LINE = /^([^\s:]+): (.+)$/;

export function commandText(translate: Translate, text: string): string {
  const line = DEVICE_LINE.exec(text);
  if (line) return `${line[1]}: ${commandText(translate, line[2])}`;
  const refusal = REFUSALS.get(text);
  if (refusal) return translate(refusal);
  if (text.endsWith(SENT_SUFFIX) && text.length > SENT_SUFFIX.length) {
    const name = text.slice(0, -SENT_SUFFIX.length);
    const known = NAMES.get(name);
    return translate('deviceCommands.sent', { name: known ? translate(known) : name });
  }
  return text;
}

/** Whether the server's answer is a command's success ("<name>命令发送成功"). */
export const isSent = (text: string) => text.endsWith(SENT_SUFFIX);

/** commandText in the console's current language. */
export function useCommandText(): (text: string) => string {
  const translate = useTranslate();
  return (text: string) => commandText(translate, text);
}
