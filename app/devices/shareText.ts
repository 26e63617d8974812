/**
 * A refused share as the console's language words it. The server answers "设备分享失败:<reason>" (spec 000
 * §8); the reasons it gives are read back to the catalogue, any other reason is shown as it came, and the
 * failure is named once (the batch share's own "设备分享失败:%{message}" would otherwise name it twice).
 */
import texts from './tabs/shared/messages';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const zh = texts['zh-CN'].deviceTab.shares;
const PREFIX = `${zh.failed}:`;
const REASONS = new Map(Object.entries(zh.reasons).map(([key, text]) => [text, `deviceTab.shares.reasons.${key}`]));

export function shareFailure(translate: Translate, message: string): string {
  const reason = message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message;
  const known = REASONS.get(reason);
  return translate('deviceBulk.shareFailed', { message: known ? translate(known) : reason });
}
