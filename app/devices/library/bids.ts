/**
 * The Bid options of a description library (spec 001 §9): the numbered enumeration, then the named bids
 * of docs/mqtt.md the built-in libraries use. Labels are enums.productJsonBid.<bid> (schemas/enums.json).
 */
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

export const BID_VALUES: string[] = [
  ...range(101, 103),
  ...range(201, 213),
  ...range(301, 309),
  ...range(401, 416),
  '801',
  '802',
  'telemetry',
  'read-threshold',
  'set-threshold',
  'switch',
  'lock',
  'refresh',
  'alarm',
  'motor',
  'upgrade',
];
