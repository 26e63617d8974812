export { LoginPasswordDialog, useLoginPassword } from './LoginPasswordDialog';
export { typeOf, isGateway, hasThresholds, isBreaker, useSend, CALLS, callsFor, type SendResult, type Send, type DeviceCalls } from './device';
export { ReadingsTable, LatestReadings, useReadings, type Readings, type ReadingColumn } from './readings';
export { DraftActions, DraftSelect, DraftsTable, useRowDrafts, type Draft, type Drafts, type EditedRow } from './rowDrafts';
