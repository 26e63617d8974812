/**
 * Topic layout shared by the server and the devices (see docs/mqtt.md).
 * Product and device numbers are single topic levels, so they must not contain '/', '+' or '#'.
 */

export type Channel = 'up' | 'ack' | 'status' | 'down';

export const TOPIC_ROOT = 'dev';

export function deviceTopic(productNumber: string, deviceNumber: string, channel: Channel): string {
  for (const part of [productNumber, deviceNumber]) {
    if (!part || /[/+#]/.test(part)) throw new Error(`invalid topic level: ${JSON.stringify(part)}`);
  }
  return `${TOPIC_ROOT}/${productNumber}/${deviceNumber}/${channel}`;
}

export interface ParsedTopic {
  productNumber: string;
  deviceNumber: string;
  channel: Channel;
}

export function parseTopic(topic: string): ParsedTopic | undefined {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== TOPIC_ROOT) return undefined;
  const channel = parts[3];
  if (channel !== 'up' && channel !== 'ack' && channel !== 'status' && channel !== 'down') return undefined;
  return { productNumber: parts[1], deviceNumber: parts[2], channel };
}

/** Filter matching one channel of every device. */
export function allDevices(channel: Channel): string {
  return `${TOPIC_ROOT}/+/+/${channel}`;
}

